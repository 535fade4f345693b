import type { LanguageModelV4Content, LanguageModelV4FinishReason } from '@ai-sdk/provider';
import type { Finished } from '../call.js';
import { textOf, toolCallsOf } from '../chat-model.js';
import type { StreamWriter } from '../stream.js';

/** The finish reason as OpenAI says it. */
export function openAIFinish(reason: LanguageModelV4FinishReason): string {
  switch (reason.unified) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

export const openAIUsage = (usage: Finished['usage']) => ({
  prompt_tokens: usage.inputTokens,
  completion_tokens: usage.outputTokens,
  total_tokens: usage.inputTokens + usage.outputTokens,
});

const created = () => Math.floor(Date.now() / 1000);

/** A `chat.completion` of a generated answer. */
export function openAICompletion(
  result: { content: LanguageModelV4Content[]; finishReason: LanguageModelV4FinishReason },
  row: Finished,
  model: string,
) {
  const calls = toolCallsOf(result.content);
  const content = textOf(result.content);
  return {
    id: `chatcmpl-${row.id}`,
    object: 'chat.completion' as const,
    created: created(),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: content === '' && calls.length ? null : content,
          refusal: null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: c.input },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: openAIFinish(result.finishReason),
      },
    ],
    usage: openAIUsage(row.usage),
  };
}

/**
 * OpenAI's `chat.completion.chunk` events: the role first, text deltas, tool calls (their id and
 * name, then their arguments in pieces, indexed by call), the finish reason, the usage chunk when
 * `stream_options.include_usage`, then `data: [DONE]`. A failure after the first chunk is an
 * `{"error": {...}}` event (what the SDK throws as an APIError).
 */
export function openAIWriter(model: string, id: string, includeUsage: boolean): StreamWriter {
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: created(), model };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  let first = true;
  const indexes = new Map<string, number>();
  const delta = (d: object) => {
    const out = first ? { role: 'assistant', ...d } : d;
    first = false;
    return chunk(out);
  };
  const call = (index: number, value: object) => delta({ tool_calls: [{ index, ...value }] });
  return {
    part(part, send) {
      if (part.type === 'text-delta' && part.delta) send(delta({ content: part.delta }));
      else if (part.type === 'tool-input-start' && !part.providerExecuted) {
        indexes.set(part.id, indexes.size);
        send(
          call(indexes.get(part.id)!, {
            id: part.id,
            type: 'function',
            function: { name: part.toolName, arguments: '' },
          }),
        );
      } else if (part.type === 'tool-input-delta' && indexes.has(part.id) && part.delta)
        send(call(indexes.get(part.id)!, { function: { arguments: part.delta } }));
      else if (
        part.type === 'tool-call' &&
        !part.providerExecuted &&
        !indexes.has(part.toolCallId)
      ) {
        // A call that came whole (no streamed input): its id, name and arguments at once.
        indexes.set(part.toolCallId, indexes.size);
        send(
          call(indexes.get(part.toolCallId)!, {
            id: part.toolCallId,
            type: 'function',
            function: { name: part.toolName, arguments: part.input },
          }),
        );
      }
    },
    finish(part, row, send) {
      if (first) send(delta({ content: '' }));
      send(chunk({}, openAIFinish(part.finishReason)));
      if (includeUsage)
        send(
          `data: ${JSON.stringify({ ...base, choices: [], usage: openAIUsage(row.usage) })}\n\n`,
        );
      send('data: [DONE]\n\n');
    },
    error(failure, send) {
      send(`data: ${JSON.stringify({ error: openAIError(failure.status, failure.message) })}\n\n`);
    },
  };
}

/** OpenAI's error object for a status and message (the type OpenAI gives that status). */
export function openAIError(status: number, message: string) {
  // The parameter a 400 names: ours (`Unsupported parameter: x ...`), or validation's (`x must ...`).
  const param =
    status === 400
      ? (/^(?:(?:Unsupported|Invalid) parameter: )?([A-Za-z_][\w.[\]]*)(?::| must | has | is )/.exec(
          message,
        )?.[1] ?? null)
      : null;
  const [type, code] =
    status === 400 || status === 413 || status === 415 || status === 422
      ? [
          'invalid_request_error',
          message.startsWith('Unsupported parameter') ? 'unsupported_parameter' : null,
        ]
      : status === 401
        ? ['authentication_error', 'invalid_api_key']
        : status === 403
          ? ['permission_error', null]
          : status === 404
            ? ['not_found_error', null]
            : status === 429
              ? ['rate_limit_error', 'rate_limit_exceeded']
              : ['api_error', null];
  return { message, type, param, code };
}
