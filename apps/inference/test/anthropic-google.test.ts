import { anthropicError, fakeProvider, gateway, json, readEvents, sse, type Fake } from './fakes';

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
const messages = [{ role: 'user', content: 'Hi' }];
const post = (path: string, body: object) =>
  fetch(`${gw.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Anthropic Messages streaming: its named SSE event types. */
const anthropicStream = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 11,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  },
  { type: 'ping' },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Bonjour' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' !' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 4 },
  },
  { type: 'message_stop' },
];

beforeEach(async () => {
  fake = await fakeProvider(sse(anthropicStream, { named: true }));
  gw = await gateway({
    INFERENCE_BASE_URLS: fake.url,
    INFERENCE_KEY_ANTHROPIC_TEST: 'ant-secret',
    INFERENCE_KEY_GEMINI_TEST: 'gem-secret',
  });
  await gw.call('POST', '/providers', {
    name: 'ant',
    type: 'anthropic',
    defaultModel: 'claude-sonnet-4',
    envVar: 'INFERENCE_KEY_ANTHROPIC_TEST',
    baseUrl: fake.url,
  });
  await gw.call('POST', '/providers', {
    name: 'gem',
    type: 'google',
    defaultModel: 'gemini-2.5-flash',
    envVar: 'INFERENCE_KEY_GEMINI_TEST',
    baseUrl: fake.url,
  });
});
afterEach(async () => {
  await gw.svc.close();
  await fake.close();
});

describe('Anthropic Messages', () => {
  it('streams a claude model after an overloaded 529, with the usage Anthropic reported', async () => {
    fake.next(anthropicError(529, 'overloaded_error', 'Overloaded'));
    const events = await readEvents(
      await post('/chat/stream', { model: 'claude-sonnet-4', messages, maxTokens: 100 }),
    );
    expect(events).toEqual([
      { type: 'content_block_delta', delta: { text: 'Bonjour' } },
      { type: 'content_block_delta', delta: { text: ' !' } },
      {
        type: 'message_stop',
        usage: { inputTokens: 11, outputTokens: 4 },
        requestId: expect.any(String),
      },
    ]);
    expect(fake.seen.map((s) => s.url)).toEqual(['/messages', '/messages']);
    expect(fake.seen[1].headers['x-api-key']).toBe('ant-secret');
    expect(JSON.parse(fake.seen[1].body)).toMatchObject({
      model: 'claude-sonnet-4',
      max_tokens: 100,
      stream: true,
    });
    const log = (await gw.call('GET', `/requests/${events[2].requestId}`)).body.data;
    expect(log).toMatchObject({
      provider: 'ant',
      status: 'ok',
      attempts: 2,
      costMicros: 11 * 3 + 4 * 15,
    });
  });

  it('ends with an error event when Anthropic sends an error event mid-stream', async () => {
    fake.next(
      sse(
        [
          ...anthropicStream.slice(0, 4),
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        ],
        { named: true },
      ),
    );
    const events = await readEvents(
      await post('/chat/stream', { model: 'claude-sonnet-4', messages }),
    );
    expect(events[0]).toEqual({ type: 'content_block_delta', delta: { text: 'Bonjour' } });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'BAD_GATEWAY' } });
    expect(fake.seen).toHaveLength(1);
  });
});

describe('Gemini', () => {
  const candidate = (text: string, finish?: string) => ({
    candidates: [
      {
        content: { role: 'model', parts: [{ text }] },
        index: 0,
        ...(finish ? { finishReason: finish } : {}),
      },
    ],
  });
  const usageMetadata = { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 };

  it('answers generateContent and streamGenerateContent', async () => {
    fake.next(json(200, { ...candidate('Hallo', 'STOP'), usageMetadata }));
    const chat = await gw.call('POST', '/chat', { model: 'gemini-2.5-flash', messages });
    expect(chat.body.data).toMatchObject({
      content: 'Hallo',
      usage: { inputTokens: 5, outputTokens: 3 },
    });
    expect(fake.seen[0].url).toBe('/models/gemini-2.5-flash:generateContent');
    expect(fake.seen[0].headers['x-goog-api-key']).toBe('gem-secret');

    fake.next(sse([candidate('Hal'), { ...candidate('lo', 'STOP'), usageMetadata }]));
    const events = await readEvents(
      await post('/chat/stream', { model: 'gemini-2.5-flash', messages }),
    );
    expect(events.map((e) => e.delta?.text ?? e.type)).toEqual(['Hal', 'lo', 'message_stop']);
    expect(events[2].usage).toEqual({ inputTokens: 5, outputTokens: 3 });
    expect(fake.seen[1].url).toBe('/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });
});

describe('rate limits as each provider sends them', () => {
  it('waits the retry-after of an Anthropic 429 (with its ratelimit headers), then answers', async () => {
    fake.next(
      anthropicError(429, 'rate_limit_error', 'Number of request tokens has exceeded your limit', {
        'retry-after': '1',
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': new Date(Date.now() + 1000).toISOString(),
      }),
    );
    const started = Date.now();
    const events = await readEvents(
      await post('/chat/stream', { model: 'claude-sonnet-4', messages }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(events.at(-1)).toMatchObject({ type: 'message_stop' });
    expect(fake.seen).toHaveLength(2);
  });

  it("waits the RetryInfo retryDelay of Gemini's RESOURCE_EXHAUSTED body (it sends no Retry-After)", async () => {
    fake.next(
      json(429, {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.6s' }],
        },
      }),
      json(200, {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 },
      }),
    );
    const started = Date.now();
    const chat = await gw.call('POST', '/chat', { model: 'gemini-2.5-flash', messages });
    expect(Date.now() - started).toBeGreaterThanOrEqual(580);
    expect(chat.body.data).toMatchObject({
      content: 'ok',
      usage: { inputTokens: 2, outputTokens: 1 },
    });
  });
});
