import { eventually } from '@platform/testing';
import {
  fakeProvider,
  gateway,
  hang,
  json,
  openAiChunks,
  openAiError,
  openAiRateHeaders,
  readEvents,
  sse,
  type Fake,
} from './fakes';

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
beforeEach(async () => {
  fake = await fakeProvider(
    sse(openAiChunks(['Hello', ' there'], { prompt_tokens: 7, completion_tokens: 2 }), {
      done: true,
    }),
  );
  gw = await gateway({ INFERENCE_BASE_URLS: fake.url, INFERENCE_KEY_OPENAI_TEST: 'sk-secret-123' });
  expect(
    (
      await gw.call('POST', '/providers', {
        name: 'oa',
        type: 'openai',
        defaultModel: 'gpt-4o',
        envVar: 'INFERENCE_KEY_OPENAI_TEST',
        baseUrl: fake.url,
      })
    ).status,
  ).toBe(201);
});
afterEach(async () => {
  await gw.svc.close();
  await fake.close();
});

const messages = [{ role: 'user', content: 'Say hello' }];
const stream = (body: object = {}, signal?: AbortSignal) =>
  fetch(`${gw.base}/chat/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
    body: JSON.stringify({ model: 'gpt-4o', messages, ...body }),
    signal,
  });
const lastLog = async () => (await gw.call('GET', '/usage?limit=1')).body.data.requests[0];

describe('POST /chat/stream against OpenAI chat completions', () => {
  it('streams deltas then message_stop with the reported usage, and logs it once with its cost', async () => {
    const res = await stream();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-request-id')).toBe('req-42');
    const events = await readEvents(res);
    expect(events).toEqual([
      { type: 'content_block_delta', delta: { text: 'Hello' } },
      { type: 'content_block_delta', delta: { text: ' there' } },
      {
        type: 'message_stop',
        usage: { inputTokens: 7, outputTokens: 2 },
        requestId: expect.any(String),
      },
    ]);
    const sent = JSON.parse(fake.seen[0].body);
    expect(fake.seen[0].url).toBe('/chat/completions');
    expect(fake.seen[0].headers.authorization).toBe('Bearer sk-secret-123');
    expect(fake.seen[0].headers['x-request-id']).toBe('req-42');
    expect(sent).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
    });
    const usage = (await gw.call('GET', '/usage')).body.data;
    expect(usage.summary).toMatchObject({
      totalRequests: 1,
      totalErrors: 0,
      totalInputTokens: 7,
      totalOutputTokens: 2,
      totalTokens: 9,
    });
    expect(usage.requests[0]).toMatchObject({
      provider: 'oa',
      model: 'gpt-4o',
      kind: 'stream',
      status: 'ok',
      estimated: false,
      attempts: 1,
      costMicros: Math.round(7 * 2.5 + 2 * 10),
      requestId: 'req-42',
      id: events[2].requestId,
    });
    expect(usage.requests[0].timeToFirstTokenMs).toEqual(expect.any(Number));
    expect(JSON.stringify(usage)).not.toContain('sk-secret');
  });

  it('estimates the tokens of a stream without a usage chunk, and says so', async () => {
    fake.next(sse(openAiChunks(['Hello', ' there'], false), { done: true }));
    const events = await readEvents(await stream());
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      usage: { inputTokens: expect.any(Number), outputTokens: 3 },
    });
    expect(await lastLog()).toMatchObject({ status: 'ok', estimated: true, outputTokens: 3 });
  });

  it('ends a stream cut mid-way with an error event, never a clean stop, and logs an error', async () => {
    fake.next(
      sse(openAiChunks(['Hello', ' there', ' again'], { prompt_tokens: 7, completion_tokens: 3 }), {
        cutAfter: 2,
        pauseMs: 20,
      }),
    );
    const events = await readEvents(await stream());
    expect(events.slice(0, 2).map((e) => e.delta?.text)).toEqual(['Hello', ' there']);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'BAD_GATEWAY', message: expect.stringContaining('oa') },
    });
    expect(events.some((e) => e.type === 'message_stop')).toBe(false);
    expect(fake.seen).toHaveLength(1); // no retry once output was sent
    expect(await lastLog()).toMatchObject({ status: 'error', estimated: true, attempts: 1 });
  });

  it('retries a 429 after its Retry-After, before the first chunk, then streams', async () => {
    fake.next(
      openAiError(429, 'Rate limit reached for gpt-4o', 'requests', 'rate_limit_exceeded', {
        ...openAiRateHeaders('0.3'),
      }),
    );
    const started = Date.now();
    const events = await readEvents(await stream());
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(events.at(-1).type).toBe('message_stop');
    expect(fake.seen).toHaveLength(2);
    expect(await lastLog()).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('answers 429 RATE_LIMITED as JSON once the attempts are spent', async () => {
    const limited = openAiError(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded', {
      ...openAiRateHeaders('0'),
    });
    fake.next(limited, limited, limited);
    const res = await stream();
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: expect.stringContaining('Rate limit reached') },
    });
    expect(fake.seen).toHaveLength(3);
    expect(await lastLog()).toMatchObject({ status: 'error', attempts: 3 });
  });

  it('falls back to the next model when the first fails before any output', async () => {
    const failed = openAiError(500, 'The server had an error', 'server_error', null);
    fake.next(failed, failed, failed);
    const events = await readEvents(await stream({ fallbacks: ['gpt-4o-mini'] }));
    expect(events.at(-1).type).toBe('message_stop');
    expect(JSON.parse(fake.seen[3].body).model).toBe('gpt-4o-mini');
    expect(await lastLog()).toMatchObject({ status: 'ok', model: 'gpt-4o-mini', attempts: 4 });
  });

  it('aborts the provider call when the client leaves, and logs it as aborted with the tokens so far', async () => {
    let providerClosed = false;
    fake.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.on('close', () => (providerClosed = true));
      res.write(`data: ${JSON.stringify(openAiChunks(['Hello world'], false)[0])}\n\n`);
    });
    const controller = new AbortController();
    const res = await stream({}, controller.signal);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('Hello world');
    controller.abort();
    const log = await eventually(async () => {
      const row = await lastLog();
      return row?.status === 'aborted' && row;
    });
    expect(log).toMatchObject({ kind: 'stream', estimated: true, outputTokens: 3 });
    await eventually(() => providerClosed);
    expect((await gw.call('GET', '/usage')).body.data.summary.totalRequests).toBe(1);
  });

  it('answers 504 when the provider hangs past INFERENCE_TIMEOUT_MS', async () => {
    fake.next(hang);
    const res = await stream();
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      '1500 ms',
    );
    expect(await lastLog()).toMatchObject({ status: 'error', attempts: 1 });
  });
});

describe('POST /chat, /embed, /images, /transcribe against OpenAI', () => {
  it('chats without streaming', async () => {
    fake.next(
      json(200, {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
      }),
    );
    const res = await gw.call('POST', '/chat', { model: 'gpt-4o', messages, maxTokens: 50 });
    expect(res.body.data).toEqual({
      content: 'Hi!',
      finishReason: 'stop',
      model: 'gpt-4o',
      usage: { inputTokens: 4, outputTokens: 2 },
      requestId: expect.any(String),
    });
    expect(JSON.parse(fake.seen[0].body)).toMatchObject({ max_tokens: 50 });
    const log = (await gw.call('GET', `/requests/${res.body.data.requestId}`)).body.data;
    expect(log).toMatchObject({
      kind: 'chat',
      status: 'ok',
      inputTokens: 4,
      outputTokens: 2,
      costMicros: 30,
    });
  });

  it('embeds, generates images and transcribes multipart audio', async () => {
    fake.next(
      json(200, {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25] }],
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 3, total_tokens: 3 },
      }),
    );
    const embedded = await gw.call('POST', '/embed', {
      model: 'text-embedding-3-small',
      input: 'hello',
    });
    expect(embedded.body.data).toMatchObject({
      embedding: [0.5, -0.25],
      usage: { inputTokens: 3 },
    });
    expect(fake.seen.at(-1)!.url).toBe('/embeddings');

    fake.next(json(200, { created: 1, data: [{ b64_json: 'aGVsbG8=' }] }));
    const images = await gw.call('POST', '/images', {
      model: 'gpt-image-1',
      prompt: 'a cat',
      size: '256x256',
    });
    expect(images.body.data.images).toEqual([
      { base64: 'aGVsbG8=', mediaType: expect.any(String) },
    ]);
    expect(JSON.parse(fake.seen.at(-1)!.body)).toMatchObject({ prompt: 'a cat', size: '256x256' });
    const badSize = await gw.call('POST', '/images', {
      model: 'gpt-image-1',
      prompt: 'a cat',
      size: 'big',
    });
    expect(badSize.status).toBe(400);
    expect(badSize.body.error.message).toContain('size');

    fake.next(json(200, { text: 'hello world', language: 'english', duration: 1.5 }));
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.from('RIFFfakeaudio')], { type: 'audio/wav' }), 'a.wav');
    const res = await fetch(`${gw.base}/transcribe`, { method: 'POST', body: form });
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({
      text: 'hello world',
      model: 'whisper-1',
    });
    expect(fake.seen.at(-1)!.url).toBe('/audio/transcriptions');
    expect(fake.seen.at(-1)!.body).toContain('RIFFfakeaudio');
    const kinds = (await gw.call('GET', '/usage')).body.data.requests.map(
      (r: { kind: string }) => r.kind,
    );
    expect(kinds).toEqual(['transcribe', 'image', 'embed']);
  });
});
