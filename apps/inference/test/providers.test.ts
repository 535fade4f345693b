import { jsonApi, serviceUnderTest, useService, type JsonApi } from '@platform/testing';
import service from '../src/index';

const svc = useService(() =>
  serviceUnderTest(service, {
    env: { OPENAI_API_KEY: 'sk-x', INFERENCE_BASE_URLS: 'http://127.0.0.1:9/v1' },
    jobs: false,
  }),
);
let api: JsonApi;
beforeEach(async () => {
  api = jsonApi(svc.app, '/api/v1/inference');
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const user = [{ role: 'user', content: 'ping' }];

describe('providers', () => {
  it('has the mock provider seeded, creates, finds by name, updates and deletes', async () => {
    expect((await api.get('/providers')).body.data).toEqual([
      expect.objectContaining({ name: 'mock', type: 'mock', defaultModel: 'mock-1', envVar: null }),
    ]);
    const created = await api.post('/providers', {
      name: 'OpenAI',
      type: 'openai',
      defaultModel: 'gpt-4o',
      envVar: 'OPENAI_API_KEY',
      baseUrl: 'http://127.0.0.1:9/v1/',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'OpenAI',
      type: 'openai',
      defaultModel: 'gpt-4o',
      envVar: 'OPENAI_API_KEY',
      baseUrl: 'http://127.0.0.1:9/v1',
      weight: null,
      created: expect.stringMatching(ISO),
      updated: expect.stringMatching(ISO),
    });
    expect(JSON.stringify(created.body)).not.toContain('sk-x');
    expect((await api.get('/providers/openai')).body.data.id).toBe(created.body.data.id);
    const updated = await api.put('/providers/OPENAI', {
      defaultModel: 'gpt-4o-mini',
      baseUrl: null,
    });
    expect(updated.body.data).toMatchObject({
      defaultModel: 'gpt-4o-mini',
      baseUrl: null,
      envVar: 'OPENAI_API_KEY',
    });
    expect(
      (await api.post('/providers', { name: 'openai', type: 'mock', defaultModel: 'm' })).status,
    ).toBe(409);
    expect((await api.del('/providers/openai')).body.data.name).toBe('OpenAI');
    expect((await api.get('/providers/openai')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Provider not found: openai',
    });
  });

  it.each([
    [
      { name: 'a', type: 'openai', defaultModel: 'gpt-4o' },
      'envVar is required for a provider of type openai',
    ],
    [
      { name: 'a', type: 'openai', defaultModel: 'gpt-4o', envVar: 'lower' },
      'envVar must be one of OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, or start with INFERENCE_KEY_ (e.g. INFERENCE_KEY_VLLM), got lower',
    ],
    [
      { name: 'a', type: 'openai', defaultModel: 'gpt-4o', envVar: 'SESSION_SECRET' },
      'envVar must be one of',
    ],
    [
      { name: 'a', type: 'openai', defaultModel: 'gpt-4o', envVar: 'OIDC_CLIENT_SECRET' },
      'envVar must be one of',
    ],
    [
      {
        name: 'a',
        type: 'openai',
        defaultModel: 'gpt-4o',
        envVar: 'OPENAI_API_KEY',
        baseUrl: 'ftp://x',
      },
      'baseUrl "ftp://x" must be http(s)',
    ],
    [{ name: 'a', type: 'cohere', defaultModel: 'x' }, 'type'],
    [{ name: 'a', type: 'mock', defaultModel: 'x', apiKey: 'sk' }, 'unknown field'],
  ])('refuses %j', async (body, message) => {
    const res = await api.post('/providers', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect((await api.get('/providers')).body.data).toHaveLength(1);
  });
});

describe('calls on the mock provider and routing', () => {
  it('answers chat, embed, images, transcribe and models offline, and logs each', async () => {
    const chat = await api.post('/chat', { model: 'mock-1', messages: user });
    expect(chat.body.data).toMatchObject({
      content: 'Mock answer to: ping',
      model: 'mock-1',
      usage: { inputTokens: expect.any(Number), outputTokens: 4 },
    });
    const embed = await api.post('/embed', { model: 'mock-embed-1', input: 'hi' });
    expect(embed.body.data.embedding).toHaveLength(8);
    expect(
      (await api.post('/embed', { model: 'mock-embed-1', input: 'hi' })).body.data.embedding,
    ).toEqual(embed.body.data.embedding);
    expect(
      (await api.post('/images', { model: 'mock-image-1', prompt: 'cat', size: '64x64', n: 2 }))
        .body.data.images,
    ).toHaveLength(2);
    const audio = Buffer.from('abc').toString('base64');
    expect((await api.post('/transcribe', { model: 'mock-whisper-1', audio })).body.data.text).toBe(
      'Mock transcription of 3 bytes of audio',
    );
    expect((await api.post('/models/sync', {})).body.data).toEqual([
      { provider: 'mock', models: 4, added: 4, error: null },
    ]);
    expect(
      (await api.get('/models?provider=MOCK')).body.data.map((m: { name: string }) => m.name),
    ).toHaveLength(4);
    const usage = (await api.get('/usage')).body.data;
    expect(usage.summary).toMatchObject({
      totalRequests: 5,
      totalErrors: 0,
      totalAborted: 0,
      totalCostMicros: 0,
    });
    expect(usage.requests.map((r: { kind: string }) => r.kind)).toEqual([
      'transcribe',
      'image',
      'embed',
      'embed',
      'chat',
    ]);
    expect((await api.get('/usage?provider=nope')).body.data.summary.totalRequests).toBe(0);
    expect((await api.get('/usage?since=2999-01-01')).body.data.requests).toEqual([]);
  });

  it.each([
    [{ messages: user }, 400, 'model is required'],
    [{ model: 'llama-3', messages: user }, 400, 'No provider serves model llama-3'],
    [{ model: 'claude-sonnet-4', messages: user }, 400, 'needs a provider of type anthropic'],
    [{ model: 'x', messages: user, providerId: 'nope' }, 404, 'Provider not found: nope'],
  ])('refuses %j', async (body, status, message) => {
    const res = await api.post('/chat', body);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(message);
  });

  it('uses the default model of providerId, and names an unset key variable', async () => {
    expect((await api.post('/chat', { providerId: 'mock', messages: user })).body.data.model).toBe(
      'mock-1',
    );
    await api.post('/providers', {
      name: 'oa',
      type: 'openai',
      defaultModel: 'gpt-4o',
      envVar: 'INFERENCE_KEY_UNSET',
    });
    const res = await api.post('/chat', { model: 'gpt-4o', messages: user });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'Provider oa needs its API key in the environment variable INFERENCE_KEY_UNSET, which is not set',
    );
  });

  it('refuses audio over INFERENCE_TRANSCRIBE_MAX_BYTES with 413', async () => {
    const small = await serviceUnderTest(service, {
      env: { INFERENCE_TRANSCRIBE_MAX_BYTES: '1024' },
      jobs: false,
    });
    const res = await jsonApi(small.app, '/api/v1/inference').post('/transcribe', {
      model: 'mock-whisper-1',
      audio: Buffer.alloc(2000).toString('base64'),
    });
    await small.close();
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
