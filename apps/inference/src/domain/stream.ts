import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withRetries, type Call } from './call.js';
import { tokensOf } from './chat-model.js';
import { classify } from './failures.js';
import type { Route } from './routing.js';
import { failBeforeOutput, type ChatInput } from './calls.js';

type Part = LanguageModelV4StreamPart;
type Finish = Extract<Part, { type: 'finish' }>;

/**
 * A stream that stopped without the provider's finish reason was cut, not finished (the
 * providers report it as `error`, or as `other` with no raw reason).
 */
const cut = (part: Finish) =>
  part.finishReason.unified === 'error' ||
  (part.finishReason.unified === 'other' && part.finishReason.raw === undefined);

/**
 * Streams a chat as Server-Sent Events (spec 6.2). Nothing is sent until the first chunk is there,
 * so failures before it are retried, fall back, or answer a JSON envelope; after it, a failure is
 * an `error` event. The client leaving aborts the provider call; the log row is queued once.
 */
export async function streamChat(
  call: Call,
  request: FastifyRequest,
  reply: FastifyReply,
  body: ChatInput,
  maxAttempts: number,
  routes: Route[],
  open: (route: Route) => Promise<ReadableStream<Part>>,
) {
  const input = JSON.stringify(body.messages);
  // The client leaving aborts the call: see startCall.
  const res = reply.raw;
  let started: { parts: ReadableStreamDefaultReader<Part>; part: Part };
  try {
    started = await withRetries(call, routes, maxAttempts, async (route) => {
      const parts = (await open(route)).getReader();
      try {
        for (;;) {
          const next = await parts.read();
          if (next.done) throw new Error('the stream ended before any output');
          const part = next.value;
          if (part.type === 'error') throw part.error;
          if (part.type === 'finish' && cut(part))
            throw new Error('the stream ended before any output');
          if ((part.type === 'text-delta' && part.delta) || part.type === 'finish')
            return { parts, part };
        }
      } catch (error) {
        // Before any output: this attempt is over, its connection closed, another may follow.
        parts.cancel().catch(() => undefined);
        throw error;
      }
    });
  } catch (error) {
    return failBeforeOutput(call, reply, error, input);
  }

  reply.hijack();
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-request-id': request.id,
  });
  const send = (event: unknown) => {
    if (!res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  let text = '';
  let part = started.part;
  try {
    for (;;) {
      if (part.type === 'text-delta' && part.delta) {
        call.markFirstOutput();
        text += part.delta;
        send({ type: 'content_block_delta', delta: { text: part.delta } });
      } else if (part.type === 'error') throw part.error;
      else if (part.type === 'finish') {
        if (cut(part)) throw new Error('the stream ended before the provider finished it');
        const row = call.finish({
          status: 'ok',
          ...tokensOf(part.usage),
          inputText: input,
          outputText: text,
        });
        send({ type: 'message_stop', usage: row.usage, requestId: row.id });
        res.end();
        return;
      }
      const next = await started.parts.read();
      if (next.done) throw new Error('the stream ended before the provider finished it');
      part = next.value;
    }
  } catch (error) {
    started.parts.cancel().catch(() => undefined);
    const gone = call.signal.reason === 'client';
    const failure = call.signal.aborted
      ? call.abortFailure()
      : classify(error, call.route!.provider);
    call.finish({
      status: gone ? 'aborted' : 'error',
      inputText: input,
      outputText: text,
      error: gone ? 'The client closed the connection' : failure.message,
    });
    if (!gone) send({ type: 'error', error: { code: failure.code, message: failure.message } });
    res.end();
  }
}
