import { ConfigError } from '@platform/core';
import type { InferenceDatabase } from '../src/database';
import { inferenceConfig } from '../src/index';
import { fakeProvider, gateway, json, openAiError, type Fake, type Handler } from './fakes';

// One gateway for the file: each test names its own providers.
let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
beforeAll(async () => {
  fake = await fakeProvider(json(404, {}));
  gw = await gateway({
    INFERENCE_BASE_URLS: ` ${fake.url}/ , https://vllm.internal.example/v1`,
    INFERENCE_KEY_OA: 'sk-oa',
    ANTHROPIC_API_KEY: 'sk-ant',
  });
  const oa = { name: 'oa', type: 'openai', defaultModel: 'gpt-4o', envVar: 'INFERENCE_KEY_OA' };
  expect((await gw.call('POST', '/providers', { ...oa, baseUrl: `${fake.url}/` })).status).toBe(
    201,
  );
});
afterAll(async () => {
  await gw.svc.close();
  await fake.close();
});

const messages = [{ role: 'user', content: 'hi' }];
const provider = (body: object) =>
  gw.call('POST', '/providers', { type: 'openai', defaultModel: 'gpt-4o', ...body });
const total = async () => (await gw.call('GET', '/usage')).body.data.summary.totalRequests;
const completion = (text: string) =>
  json(200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  });

describe('baseUrl: official APIs and INFERENCE_BASE_URLS only', () => {
  it('accepts the official API and the listed URLs (normalised), refuses any other with 400', async () => {
    const listed = await gw.call('GET', '/providers/oa');
    expect(listed.body.data.baseUrl).toBe(fake.url);
    const official = await provider({
      name: 'official',
      envVar: 'OPENAI_API_KEY',
      baseUrl: 'https://API.openai.com/v1/',
    });
    expect(official.body.data.baseUrl).toBe('https://api.openai.com/v1');
    expect((await provider({ name: 'plain', envVar: 'OPENAI_API_KEY' })).status).toBe(201);
    const vllm = await provider({
      name: 'vllm',
      type: 'openai-compatible',
      envVar: 'INFERENCE_KEY_VLLM',
      baseUrl: 'https://vllm.internal.example/v1',
    });
    expect(vllm.status).toBe(201);

    const refused = await provider({
      name: 'evil',
      envVar: 'OPENAI_API_KEY',
      baseUrl: 'http://169.254.169.254/latest',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      "baseUrl http://169.254.169.254/latest is not allowed: provider keys are sent only to the type's official API (https://api.openai.com/v1) and to the URLs listed in INFERENCE_BASE_URLS",
    );
    // Another type's official API is not this type's.
    const crossed = await provider({
      name: 'crossed',
      type: 'anthropic',
      envVar: 'ANTHROPIC_API_KEY',
      baseUrl: 'https://api.openai.com/v1',
    });
    expect(crossed.body.error.message).toContain('is not allowed');
    const compatible = await provider({
      name: 'c',
      type: 'openai-compatible',
      envVar: 'INFERENCE_KEY_C',
    });
    expect(compatible.body.error.message).toBe(
      'baseUrl is required for a provider of type openai-compatible: one of the URLs listed in INFERENCE_BASE_URLS',
    );
    const moved = await gw.call('PUT', '/providers/oa', { baseUrl: 'http://127.0.0.1:1' });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toContain('INFERENCE_BASE_URLS');
    expect((await gw.call('GET', '/providers/oa')).body.data.baseUrl).toBe(fake.url);
  });

  it('is checked again before every call, before the key is read, and nothing is sent', async () => {
    // A row written before the rule (or while the list named its URL).
    await gw.svc.db
      .schema<InferenceDatabase>('inference')
      .insertInto('providers')
      .values([
        {
          id: 'stale0001',
          name: 'stale',
          type: 'anthropic',
          default_model: 'claude-x',
          env_var: 'INFERENCE_KEY_UNSET',
          base_url: 'http://127.0.0.1:1/v1',
        },
        {
          id: 'stale0002',
          name: 'secretive',
          type: 'openai',
          default_model: 'gpt-4o',
          env_var: 'SESSION_SECRET',
          base_url: null,
        },
      ])
      .execute();
    await gw.call('PUT', '/providers/mock', { defaultModel: 'mock-1' }); // forgets the copy
    const before = fake.seen.length;
    const stale = await gw.call('POST', '/chat', { providerId: 'stale', messages });
    expect(stale.status).toBe(400);
    expect(stale.body.error.message).toContain('baseUrl http://127.0.0.1:1/v1 is not allowed');
    const secretive = await gw.call('POST', '/chat', { providerId: 'secretive', messages });
    expect(secretive.status).toBe(400);
    expect(secretive.body.error.message).toContain('envVar must be one of');
    const sync = await gw.call('POST', '/models/sync', { provider: 'stale' });
    expect(sync.body.error.message).toContain('is not allowed');
    expect(fake.seen.length).toBe(before);
  });

  it('stops start-up on a bad INFERENCE_BASE_URLS entry', () => {
    for (const entry of ['not a url', 'ftp://x', 'https://u:p@x.example', 'https://x.example/?a=1'])
      expect(() => inferenceConfig({ INFERENCE_BASE_URLS: `https://ok.example,${entry}` })).toThrow(
        ConfigError,
      );
    expect(inferenceConfig({ INFERENCE_BASE_URLS: 'HTTP://Host:8000/v1/' }).baseUrls).toEqual([
      'http://host:8000/v1',
    ]);
  });
});

describe('envVar: the providers names or INFERENCE_KEY_*', () => {
  it.each(['OPENAI_API_KEY', 'GEMINI_API_KEY', 'INFERENCE_KEY_VLLM'])(
    'accepts %s',
    async (name) => {
      const res = await provider({ name: `ok-${name}`, envVar: name });
      expect(res.status).toBe(201);
    },
  );

  it.each(['AWS_SECRET_ACCESS_KEY', 'DATABASE_URL', 'INFERENCE_KEY_', 'PATH'])(
    'refuses %s with the rule',
    async (name) => {
      const res = await provider({ name: 'x', envVar: name });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(
        `envVar must be one of OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, or start with INFERENCE_KEY_ (e.g. INFERENCE_KEY_VLLM), got ${name}`,
      );
    },
  );
});

describe('error texts: never the upstream body', () => {
  const html: Handler = (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html>internal-secret-page root:x:0:0</html>');
  };
  const text200: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('internal-secret-page root:x:0:0');
  };

  it.each([
    ['a non-JSON error body', html, 400, 'Provider oa answered 404'],
    [
      "the provider's JSON error (sanitised)",
      openAiError(400, 'bad\u0000 model\n\tname', 'invalid_request_error', null),
      400,
      'Provider oa answered 400: bad model name',
    ],
    [
      'an answer that is not JSON',
      text200,
      502,
      'Provider oa answered 200 with something that could not be read',
    ],
  ])('%s', async (_what, handler, status, message) => {
    fake.next(handler);
    const res = await gw.call('POST', '/chat', { providerId: 'oa', messages });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
    const row = await gw.call('GET', `/usage?provider=oa&limit=1`);
    expect(row.body.data.requests[0].error).toBe(message);
  });

  it('model sync reports no body either', async () => {
    fake.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('internal-secret-page');
    });
    const res = await gw.call('POST', '/models/sync', { provider: 'oa' });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(
      'Provider oa answered its model list with something other than JSON',
    );
  });
});

describe('requests refused before any call', () => {
  it('a capability the provider lacks is a 400, not a provider error, and logs nothing', async () => {
    await gw.call('POST', '/providers', {
      name: 'ant',
      type: 'anthropic',
      defaultModel: 'claude-sonnet-4',
      envVar: 'ANTHROPIC_API_KEY',
    });
    const before = await total();
    const audio = Buffer.from('abc').toString('base64');
    const res = await gw.call('POST', '/transcribe', { providerId: 'ant', audio });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'Provider ant (type anthropic) does not offer transcription',
    );
    const embed = await gw.call('POST', '/embed', { providerId: 'ant', input: 'x' });
    expect(embed.body.error.message).toBe(
      'Provider ant (type anthropic) does not offer embeddings',
    );
    expect(await total()).toBe(before);
  });

  it('an empty model with providerId is its defaultModel; without providerId, model is required', async () => {
    fake.next(completion('hello'));
    const res = await gw.call('POST', '/chat', { providerId: 'oa', model: '', messages });
    expect(res.body.data).toMatchObject({ content: 'hello', model: 'gpt-4o' });
    expect(JSON.parse(fake.seen.at(-1)!.body).model).toBe('gpt-4o');
    const none = await gw.call('POST', '/chat', { model: '', messages });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('model is required');
  });

  it.each([
    [{ model: 'mock-1\u0000' }, 'model must not contain control characters'],
    [{ providerId: 'mock', model: 'mock\u0000-1' }, 'model must not contain control characters'],
    [
      { model: 'mock-1', fallbacks: ['mock-2\u0007'] },
      'fallbacks must not contain control characters',
    ],
  ])('a control character in a model name is a 400: %j', async (body, message) => {
    const before = await total();
    const res = await gw.call('POST', '/chat', { messages, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(await total()).toBe(before);
    const created = await provider({
      name: 'nul',
      envVar: 'OPENAI_API_KEY',
      defaultModel: 'a\u0000',
    });
    expect(created.body.error.message).toBe('defaultModel must not contain control characters');
  });
});
