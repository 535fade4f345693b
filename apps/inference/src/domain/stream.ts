import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withRetries, type Call, type Finished } from './call.js';
import { tokensOf } from './chat-model.js';
import { CallFailure, classify } from './failures.js';
import type { Route } from './routing.js';
import { failBeforeOutput } from './calls.js';

export type Part = LanguageModelV4StreamPart;
export type Finish = Extract<Part, { type: 'finish' }>;

/**
 * What a stream looks like on the wire: the native events, OpenAI's chunks, Anthropic's events.
 * `part` gets every part from the first output on (text, tool input, tool calls), `finish` the
 * provider's finish with the logged usage, `error` a failure after the first output.
 */
export interface StreamWriter {
  part(part: Part, send: (text: string) => void): void;
  finish(part: Finish, row: Finished, send: (text: string) => void): void;
  error(failure: CallFailure, send: (text: string) => void): void;
}

/**
 * A stream that stopped without the provider's finish reason was cut, not finished (the
 * providers report it as `error`, or as `other` with no raw reason).
 */
const cut = (part: Finish) =>
  part.finishReason.unified === 'error' ||
  (part.finishReason.unified === 'other' && part.finishReason.raw === undefined);

/** The first part that is output: text, a tool call (or its start), or the finish. */
const isOutput = (part: Part) =>
  (part.type === 'text-delta' && part.delta !== '') ||
  part.type === 'tool-input-start' ||
  part.type === 'tool-call' ||
  part.type === 'finish';

/** What a part adds to the output text the log estimates from when the provider counts nothing. */
const textOfPart = (part: Part) =>
  part.type === 'text-delta' || part.type === 'tool-input-delta'
    ? part.delta
    : part.type === 'tool-call'
      ? part.input
      : '';

/**
 * Streams a chat as Server-Sent Events, in the format `writer` writes. Nothing is sent until the
 * first output is there, so failures before it are retried, fall back, or answer a JSON error;
 * after it, a failure is the writer's error event. The client leaving aborts the provider call;
 * the log row is queued once.
 */
export async function streamParts(
  call: Call,
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    input: string;
    maxAttempts: number;
    routes: Route[];
    open: (route: Route) => Promise<ReadableStream<Part>>;
    writer: StreamWriter;
  },
) {
  const { input, writer } = options;
  const res = reply.raw;
  let started: { parts: ReadableStreamDefaultReader<Part>; part: Part };
  try {
    started = await withRetries(call, options.routes, options.maxAttempts, async (route) => {
      const parts = (await options.open(route)).getReader();
      try {
        for (;;) {
          const next = await parts.read();
          if (next.done) throw new Error('the stream ended before any output');
          const part = next.value;
          if (part.type === 'error') throw part.error;
          if (part.type === 'finish' && cut(part))
            throw new Error('the stream ended before any output');
          if (isOutput(part)) return { parts, part };
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
  const send = (text: string) => {
    if (!res.destroyed) res.write(text);
  };
  let text = '';
  let part = started.part;
  try {
    for (;;) {
      if (part.type === 'error') throw part.error;
      if (part.type === 'finish') {
        if (cut(part)) throw new Error('the stream ended before the provider finished it');
        const row = call.finish({
          status: 'ok',
          ...tokensOf(part.usage),
          inputText: input,
          outputText: text,
        });
        writer.finish(part, row, send);
        res.end();
        return;
      }
      const added = textOfPart(part);
      if (added) {
        call.markFirstOutput();
        text += added;
      }
      writer.part(part, send);
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
    if (!gone) writer.error(failure, send);
    res.end();
  }
}

const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

/**
 * The native events (spec 6.2): `content_block_delta` per chunk of text, `tool_call` per complete
 * tool call, then `message_stop` with the usage; `error` after a failure.
 */
export const nativeWriter: StreamWriter = {
  part(part, send) {
    if (part.type === 'text-delta' && part.delta)
      send(data({ type: 'content_block_delta', delta: { text: part.delta } }));
    else if (part.type === 'tool-call')
      send(
        data({
          type: 'tool_call',
          toolCall: { id: part.toolCallId, name: part.toolName, input: part.input },
        }),
      );
  },
  finish(_part, row, send) {
    send(data({ type: 'message_stop', usage: row.usage, requestId: row.id }));
  },
  error(failure, send) {
    send(data({ type: 'error', error: { code: failure.code, message: failure.message } }));
  },
};

/** A native chat streamed (spec 6.2): its messages logged as its input. */
export function streamChat(
  call: Call,
  request: FastifyRequest,
  reply: FastifyReply,
  body: { messages: unknown },
  maxAttempts: number,
  routes: Route[],
  open: (route: Route) => Promise<ReadableStream<Part>>,
) {
  const input = JSON.stringify(body.messages);
  return streamParts(call, request, reply, {
    input,
    maxAttempts,
    routes,
    open,
    writer: nativeWriter,
  });
}
