import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import {
  listen,
  serviceUnderTest,
  sleep,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import { inference } from '../src/index';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
export type Handler = (req: Seen, res: ServerResponse) => void;

/** A local provider: answers with the handler queued (or the default), records every request. */
export async function fakeProvider(fallback: Handler) {
  const queue: Handler[] = [];
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      };
      seen.push(s);
      (queue.shift() ?? fallback)(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    next: (...handlers: Handler[]) => queue.push(...handlers),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type Fake = Awaited<ReturnType<typeof fakeProvider>>;

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** OpenAI's error body (also OpenRouter's, openai-compatible servers'), with its headers. */
export const openAiError = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
) =>
  json(
    status,
    { error: { message, type, param: null, code } },
    { 'x-request-id': 'req_fake', ...headers },
  );

/** OpenAI's rate-limit headers on a 429 (retry-after is sent on some, not all). */
export const openAiRateHeaders = (retryAfter?: string) => ({
  'x-ratelimit-limit-requests': '500',
  'x-ratelimit-remaining-requests': '0',
  'x-ratelimit-reset-requests': '120ms',
  'x-ratelimit-limit-tokens': '30000',
  'x-ratelimit-remaining-tokens': '29990',
  'x-ratelimit-reset-tokens': '20ms',
  ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
});

/** Anthropic's error body `{type:"error", error:{type, message}, request_id}` and headers. */
export const anthropicError = (
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) =>
  json(
    status,
    { type: 'error', error: { type, message }, request_id: 'req_011fake' },
    { 'request-id': 'req_011fake', ...headers },
  );

/** `data:` events (optionally named), as the SSE providers write them, with a pause between them. */
export function sse(
  events: Array<unknown>,
  options: {
    named?: boolean;
    done?: boolean;
    cutAfter?: number;
    pauseMs?: number;
    /** An SSE comment line written before each event (OpenRouter's `: OPENROUTER PROCESSING`). */
    comment?: string;
  } = {},
): Handler {
  const write = async (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, event] of events.entries()) {
      if (options.cutAfter === i) return void res.socket?.destroy();
      if (options.comment) res.write(`: ${options.comment}\n\n`);
      const type = (event as { type?: string }).type;
      res.write(
        `${options.named && type ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`,
      );
      if (options.pauseMs) await sleep(options.pauseMs);
    }
    if (options.done) res.write('data: [DONE]\n\n');
    res.end();
  };
  return (_req, res) => void write(res);
}

/** OpenAI chat-completion chunks for `words`, the finish chunk, and a usage chunk unless `usage` is false. */
export function openAiChunks(
  words: string[],
  usage: { prompt_tokens: number; completion_tokens: number } | false,
) {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
  return [
    ...words.map((w, i) => ({
      ...base,
      choices: [
        {
          index: 0,
          delta: i ? { content: w } : { role: 'assistant', content: w },
          finish_reason: null,
        },
      ],
    })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ...(usage
      ? [
          {
            ...base,
            choices: [],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          },
        ]
      : []),
  ];
}

export const hang: Handler = () => undefined;

export const FAST = { INFERENCE_TIMEOUT_MS: '1500', INFERENCE_MAX_ATTEMPTS: '3' };

/** The service on a fresh database, listening, with `env`; closed by the caller. */
export async function gateway(env: Record<string, string>) {
  const svc: ServiceUnderTest = await serviceUnderTest(inference, {
    env: { ...FAST, ...env },
    jobs: false,
  });
  const base = `${await listen(svc.app)}/api/v1/inference`;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };
  return { svc, base, call };
}

/** Reads an SSE answer to the end: its status, headers and events. */
export async function readEvents(res: Response) {
  const events: Json[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

/** An OpenAI chat completion answering `text`, with this usage (issue 34's tests). */
export const chatCompletion = (text: string, promptTokens: number, completionTokens: number) =>
  json(200, {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  });
