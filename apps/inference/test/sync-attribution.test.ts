import { signIdentity } from '@platform/core';
import { sql } from '@platform/db';
import { person, sleep } from '@platform/testing';
import { anthropicError, fakeProvider, gateway, json, type Fake, type Handler } from './fakes';

const SESSION_SECRET = 'test-session-secret-of-at-least-32-characters';
const AUTH = { OIDC_CLIENT_ID: 'inference-tests', OIDC_CLIENT_SECRET: 'x', SESSION_SECRET };
const messages = [{ role: 'user', content: 'Hi' }];

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
afterEach(async () => {
  await gw.svc.close();
  await fake.close();
});

/** Each provider's model-list API, as its own wire format and paging. */
const modelLists: Handler = (req, res) => {
  const url = new URL(req.url, 'http://x');
  const send = (body: unknown) => json(200, body)(req, res);
  if (req.headers['x-api-key'] === 'ant') {
    if (req.headers['anthropic-version'] !== '2023-06-01')
      return anthropicError(400, 'invalid_request_error', 'version')(req, res);
    const model = (id: string) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: '2025-05-14T00:00:00Z',
    });
    return url.searchParams.get('after_id') === 'claude-b'
      ? send({
          data: [model('claude-c')],
          has_more: false,
          first_id: 'claude-c',
          last_id: 'claude-c',
        })
      : send({
          data: [model('claude-a'), model('claude-b')],
          has_more: true,
          first_id: 'claude-a',
          last_id: 'claude-b',
        });
  }
  if (req.headers['x-goog-api-key'] === 'gem') {
    const model = (id: string) => ({
      name: `models/${id}`,
      displayName: id,
      supportedGenerationMethods: ['generateContent'],
    });
    return url.searchParams.get('pageToken') === 'p2'
      ? send({ models: [model('gemini-2.5-pro')] })
      : send({ models: [model('gemini-2.5-flash')], nextPageToken: 'p2' });
  }
  if (req.headers.authorization === 'Bearer oai')
    return send({
      object: 'list',
      data: [{ id: 'gpt-4o', object: 'model', created: 1, owned_by: 'openai' }],
    });
  if (req.headers.authorization === 'Bearer or')
    return send({
      data: [
        {
          id: 'openai/gpt-4o',
          name: 'OpenAI: GPT-4o',
          context_length: 128000,
          pricing: { prompt: '0.0000025', completion: '0.00001' },
        },
      ],
    });
  return json(401, { error: { message: 'Invalid API key', type: 'invalid_request_error' } })(
    req,
    res,
  );
};

describe('POST /models/sync', () => {
  it("reads each provider's model-list endpoint, following its pages, and reports failures per provider", async () => {
    fake = await fakeProvider(modelLists);
    gw = await gateway({
      INFERENCE_BASE_URLS: fake.url,
      INFERENCE_KEY_ANT: 'ant',
      INFERENCE_KEY_GEM: 'gem',
      INFERENCE_KEY_OAI: 'oai',
      INFERENCE_KEY_OR: 'or',
      INFERENCE_KEY_BAD: 'bad',
    });
    const add = (name: string, type: string, envVar: string) =>
      gw.call('POST', '/providers', { name, type, defaultModel: 'm', envVar, baseUrl: fake.url });
    await add('ant', 'anthropic', 'INFERENCE_KEY_ANT');
    await add('gem', 'google', 'INFERENCE_KEY_GEM');
    await add('oai', 'openai', 'INFERENCE_KEY_OAI');
    await add('or', 'openrouter', 'INFERENCE_KEY_OR');
    await add('bad', 'openai-compatible', 'INFERENCE_KEY_BAD');
    const res = await gw.call('POST', '/models/sync', {});
    expect(res.body.data).toEqual([
      { provider: 'mock', models: 4, added: 4, error: null },
      { provider: 'ant', models: 3, added: 3, error: null },
      { provider: 'gem', models: 2, added: 2, error: null },
      { provider: 'oai', models: 1, added: 1, error: null },
      { provider: 'or', models: 1, added: 1, error: null },
      {
        provider: 'bad',
        models: 0,
        added: 0,
        error: 'Provider bad answered 401 to its model list',
      },
    ]);
    const names = async (p: string) =>
      (await gw.call('GET', `/models?provider=${p}`)).body.data
        .map((m: { name: string }) => m.name)
        .sort();
    expect(await names('ant')).toEqual(['claude-a', 'claude-b', 'claude-c']);
    expect(await names('gem')).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro']);
    expect(await names('or')).toEqual(['openai/gpt-4o']);
    expect(fake.seen.find((s) => s.headers['x-api-key'])!.url).toBe('/models?limit=1000');
    const one = await gw.call('POST', '/models/sync', { provider: 'bad' });
    expect(one.status).toBe(502);
  });
});

describe('the calling app (x-stage-app)', () => {
  it('is recorded only when the caller is the platform service stage', async () => {
    fake = await fakeProvider(json(404, {}));
    gw = await gateway(AUTH);
    const as = async (identity: Parameters<typeof signIdentity>[1]) => {
      const token = await signIdentity(SESSION_SECRET, identity);
      const res = await gw.call(
        'POST',
        '/chat',
        { model: 'mock-1', messages },
        {
          'x-platform-identity': token,
          'x-stage-app': 'app_123',
        },
      );
      expect(res.status).toBe(200);
      return (
        await gw.call('GET', `/requests/${res.body.data.requestId}`, undefined, {
          'x-platform-identity': token,
        })
      ).body.data.app;
    };
    expect(await as({ kind: 'service', name: 'stage' })).toBe('app_123');
    expect(await as({ kind: 'service', name: 'tests' })).toBeNull();
    expect(await as(person('a@b.c'))).toBeNull();
    expect((await gw.call('POST', '/chat', { model: 'mock-1', messages })).status).toBe(401);
  });
});

describe('hot path', () => {
  it('routes from memory (no query per call), sees provider writes at once, and never loses a log row', async () => {
    fake = await fakeProvider(json(404, {}));
    gw = await gateway({});
    await gw.call('POST', '/chat', { model: 'mock-1', messages }); // warms the providers
    await gw.call('GET', '/usage'); // writes its log row now, not during the call counted below
    gw.svc.queries.reset();
    await gw.call('POST', '/chat', { model: 'mock-1', messages });
    // Nothing but the call's log row, written after the answer (within 50 ms: on a busy machine
    // it may be written by the time this looks).
    expect(gw.svc.queries.statements().filter((s) => s !== 'insert requests')).toEqual([]);
    await gw.call('PUT', '/providers/mock', { name: 'offline' });
    expect((await gw.call('POST', '/chat', { providerId: 'offline', messages })).status).toBe(200);

    const errors: unknown[] = [];
    const log = gw.svc.app.log as unknown as { error: (...args: unknown[]) => void };
    const original = log.error.bind(log);
    log.error = (...args: unknown[]) => void errors.push(args);
    try {
      await sql`alter table inference.requests rename to requests_away`.execute(gw.svc.db.kysely);
      const chat = await gw.call('POST', '/chat', { model: 'mock-1', messages });
      expect(chat.status).toBe(200); // the answer does not wait for the log
      await sleep(150);
      expect(JSON.stringify(errors)).toContain('writing the request log failed');
      await sql`alter table inference.requests_away rename to requests`.execute(gw.svc.db.kysely);
      const row = await gw.call('GET', `/requests/${chat.body.data.requestId}`);
      expect(row.body.data).toMatchObject({ kind: 'chat', status: 'ok' });
    } finally {
      log.error = original;
    }
    expect((await gw.call('GET', '/usage')).body.data.summary.totalRequests).toBe(4);
  });
});
