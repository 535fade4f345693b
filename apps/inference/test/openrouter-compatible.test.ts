import {
  fakeProvider,
  gateway,
  json,
  openAiChunks,
  openAiError,
  readEvents,
  sse,
  type Fake,
} from './fakes';

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
const messages = [{ role: 'user', content: 'Hi' }];
const post = (path: string, body: object) =>
  fetch(`${gw.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const lastLog = async () => (await gw.call('GET', '/usage?limit=1')).body.data.requests[0];

/** OpenRouter's final chunk: usage with its cost and token details. */
const openRouterUsage = {
  prompt_tokens: 6,
  completion_tokens: 2,
  total_tokens: 8,
  cost: 0.00004,
  is_byok: false,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};

beforeEach(async () => {
  fake = await fakeProvider(json(404, { error: { message: 'not here' } }));
  gw = await gateway({
    INFERENCE_BASE_URLS: fake.url,
    INFERENCE_KEY_OPENROUTER_TEST: 'or-secret',
    INFERENCE_KEY_LOCAL: 'local-secret',
  });
  for (const provider of [
    {
      name: 'orouter',
      type: 'openrouter',
      defaultModel: 'openai/gpt-4o',
      envVar: 'INFERENCE_KEY_OPENROUTER_TEST',
    },
    {
      name: 'local',
      type: 'openai-compatible',
      defaultModel: 'llama3',
      envVar: 'INFERENCE_KEY_LOCAL',
    },
  ])
    expect((await gw.call('POST', '/providers', { ...provider, baseUrl: fake.url })).status).toBe(
      201,
    );
});
afterEach(async () => {
  await gw.svc.close();
  await fake.close();
});

describe('OpenRouter', () => {
  it('routes <provider name>/<model>, chats, and streams through its keep-alive comments', async () => {
    fake.next(
      json(200, {
        id: 'gen-1',
        provider: 'OpenAI',
        model: 'openai/gpt-4o',
        object: 'chat.completion',
        created: 1,
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            native_finish_reason: 'stop',
            message: { role: 'assistant', content: 'Hey', refusal: null },
          },
        ],
        usage: openRouterUsage,
      }),
    );
    const chat = await gw.call('POST', '/chat', { model: 'orouter/openai/gpt-4o', messages });
    expect(chat.body.data).toMatchObject({
      content: 'Hey',
      model: 'orouter/openai/gpt-4o',
      usage: { inputTokens: 6, outputTokens: 2 },
    });
    expect(fake.seen[0].url).toBe('/chat/completions');
    expect(fake.seen[0].headers.authorization).toBe('Bearer or-secret');
    expect(JSON.parse(fake.seen[0].body).model).toBe('openai/gpt-4o');

    const chunks = openAiChunks(['Hel', 'lo'], false).map((c) => ({
      ...c,
      model: 'openai/gpt-4o',
      provider: 'OpenAI',
    }));
    chunks.push({ ...chunks[0], choices: [], usage: openRouterUsage } as never);
    fake.next(sse(chunks, { done: true, comment: 'OPENROUTER PROCESSING' }));
    const events = await readEvents(
      await post('/chat/stream', { model: 'openrouter/openai/gpt-4o', messages }),
    );
    expect(events.map((e) => e.delta?.text ?? e.type)).toEqual(['Hel', 'lo', 'message_stop']);
    expect(events[2].usage).toEqual({ inputTokens: 6, outputTokens: 2 });
    expect(JSON.parse(fake.seen[1].body)).toMatchObject({ model: 'openai/gpt-4o', stream: true });
    expect(await lastLog()).toMatchObject({
      provider: 'orouter',
      kind: 'stream',
      status: 'ok',
      estimated: false,
    });
  });

  it('ends with an error event on an error chunk mid-stream (finish_reason error)', async () => {
    const [first] = openAiChunks(['Hel'], false);
    fake.next(
      sse([
        first,
        {
          ...first,
          error: { code: 502, message: 'Upstream provider went away' },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        },
      ]),
    );
    const events = await readEvents(
      await post('/chat/stream', { model: 'orouter/openai/gpt-4o', messages }),
    );
    expect(events[0]).toEqual({ type: 'content_block_delta', delta: { text: 'Hel' } });
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: {
        code: 'BAD_GATEWAY',
        message: expect.stringContaining('Upstream provider went away'),
      },
    });
    expect(await lastLog()).toMatchObject({ status: 'error', outputTokens: 1, estimated: true });
  });
});

describe('openai-compatible (vLLM, Ollama, LM Studio)', () => {
  it('chats and streams with providerId, the usage chunk asked by stream_options', async () => {
    fake.next(
      json(200, {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'llama3',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Yo' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
      sse(openAiChunks(['Y', 'o'], { prompt_tokens: 3, completion_tokens: 2 }), { done: true }),
    );
    const chat = await gw.call('POST', '/chat', { providerId: 'local', messages });
    expect(chat.body.data).toMatchObject({
      content: 'Yo',
      model: 'llama3',
      usage: { inputTokens: 3, outputTokens: 1 },
    });
    expect(fake.seen[0].headers.authorization).toBe('Bearer local-secret');
    const events = await readEvents(await post('/chat/stream', { providerId: 'local', messages }));
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect(JSON.parse(fake.seen[1].body)).toMatchObject({
      model: 'llama3',
      stream: true,
      stream_options: { include_usage: true },
    });
    const log = await lastLog();
    expect(log).toMatchObject({ provider: 'local', model: 'llama3', costMicros: null });
  });

  it('reports a stream that ends without a finish reason as an error, never a clean stop', async () => {
    const chunks = openAiChunks(['Half', ' an answer'], false).slice(0, 2);
    fake.next(sse(chunks, { done: true }));
    const events = await readEvents(await post('/chat/stream', { providerId: 'local', messages }));
    expect(events.slice(0, 2).map((e) => e.delta.text)).toEqual(['Half', ' an answer']);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'BAD_GATEWAY' } });
    expect(events.some((e) => e.type === 'message_stop')).toBe(false);
    expect(await lastLog()).toMatchObject({ status: 'error', estimated: true });
  });

  it('answers a refused key as 502 naming the variable, without retrying', async () => {
    fake.next(
      openAiError(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
    );
    const res = await gw.call('POST', '/chat', { providerId: 'local', messages });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('INFERENCE_KEY_LOCAL');
    expect(res.body.error.message).not.toContain('local-secret');
    expect(fake.seen).toHaveLength(1);
  });
});
