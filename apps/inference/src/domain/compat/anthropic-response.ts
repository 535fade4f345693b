import type { LanguageModelV4Content, LanguageModelV4FinishReason } from '@ai-sdk/provider';
import type { Finished } from '../call.js';
import { parseInput } from '../chat-model.js';
import type { StreamWriter } from '../stream.js';

/** The stop reason as Anthropic says it. */
export function stopReason(reason: LanguageModelV4FinishReason): string {
  if (reason.raw === 'stop_sequence') return 'stop_sequence';
  switch (reason.unified) {
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

const usageOf = (usage: Finished['usage']) => ({
  input_tokens: usage.inputTokens,
  output_tokens: usage.outputTokens,
});

/** A `message` of a generated answer: its text and tool_use blocks in order. */
export function anthropicMessage(
  result: { content: LanguageModelV4Content[]; finishReason: LanguageModelV4FinishReason },
  row: Finished,
  model: string,
) {
  const content = result.content.flatMap((part): Array<Record<string, unknown>> =>
    part.type === 'text' && part.text
      ? [{ type: 'text' as const, text: part.text }]
      : part.type === 'tool-call' && !part.providerExecuted
        ? [
            {
              type: 'tool_use' as const,
              id: part.toolCallId,
              name: part.toolName,
              input: parseInput(part.input),
            },
          ]
        : [],
  );
  return {
    id: `msg_${row.id}`,
    type: 'message' as const,
    role: 'assistant' as const,
    model,
    content,
    stop_reason: stopReason(result.finishReason),
    stop_sequence: null,
    usage: usageOf(row.usage),
  };
}

const event = (type: string, body: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;

/**
 * Anthropic's events: message_start and a ping, then one content block at a time (text deltas,
 * or a tool_use block with its input as input_json_delta pieces), message_delta with the stop
 * reason and the usage (input tokens included: they are known at the end), message_stop. A
 * failure after the first event is an `error` event.
 */
export function anthropicWriter(model: string, id: string): StreamWriter {
  let started = false;
  let index = -1;
  let open: { kind: 'text' | 'tool'; id: string } | undefined;
  const streamed = new Set<string>();
  const start = (send: (text: string) => void) => {
    if (started) return;
    started = true;
    send(
      event('message_start', {
        message: {
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      }),
    );
    send(event('ping', {}));
  };
  const close = (send: (text: string) => void) => {
    if (open) send(event('content_block_stop', { index }));
    open = undefined;
  };
  const openBlock = (
    send: (text: string) => void,
    kind: 'text' | 'tool',
    blockId: string,
    block: object,
  ) => {
    close(send);
    index++;
    open = { kind, id: blockId };
    send(event('content_block_start', { index, content_block: block }));
  };
  return {
    part(part, send) {
      start(send);
      if (part.type === 'text-delta' && part.delta) {
        if (open?.kind !== 'text') openBlock(send, 'text', part.id, { type: 'text', text: '' });
        send(
          event('content_block_delta', { index, delta: { type: 'text_delta', text: part.delta } }),
        );
      } else if (part.type === 'tool-input-start' && !part.providerExecuted) {
        streamed.add(part.id);
        openBlock(send, 'tool', part.id, {
          type: 'tool_use',
          id: part.id,
          name: part.toolName,
          input: {},
        });
      } else if (
        part.type === 'tool-input-delta' &&
        open?.kind === 'tool' &&
        open.id === part.id &&
        part.delta
      )
        send(
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: part.delta },
          }),
        );
      else if (part.type === 'tool-input-end' && open?.id === part.id) close(send);
      else if (
        part.type === 'tool-call' &&
        !part.providerExecuted &&
        !streamed.has(part.toolCallId)
      ) {
        openBlock(send, 'tool', part.toolCallId, {
          type: 'tool_use',
          id: part.toolCallId,
          name: part.toolName,
          input: {},
        });
        send(
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: part.input },
          }),
        );
        close(send);
      }
    },
    finish(part, row, send) {
      start(send);
      close(send);
      send(
        event('message_delta', {
          delta: { stop_reason: stopReason(part.finishReason), stop_sequence: null },
          usage: usageOf(row.usage),
        }),
      );
      send(event('message_stop', {}));
    },
    error(failure, send) {
      send(event('error', { error: anthropicError(failure.status, failure.message).error }));
    },
  };
}

/** Anthropic's error body for a status and message, with the status it answers. */
export function anthropicError(status: number, message: string) {
  const type =
    status === 400 || status === 415 || status === 422
      ? 'invalid_request_error'
      : status === 401
        ? 'authentication_error'
        : status === 403
          ? 'permission_error'
          : status === 404
            ? 'not_found_error'
            : status === 413
              ? 'request_too_large'
              : status === 429
                ? 'rate_limit_error'
                : /overloaded/i.test(message)
                  ? 'overloaded_error'
                  : 'api_error';
  return { type: 'error' as const, error: { type, message } };
}
