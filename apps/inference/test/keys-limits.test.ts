import type { Identity } from '@platform/core';
import {
  clearOfMinuteEnd,
  AUTH_ENV,
  CALLERS,
  identityHeaders,
  jsonApiAs,
  listen,
  serviceUnderTest,
  type ServiceUnderTest,
} from '@platform/testing';
import { passport } from '@platform/passport';
import { inference } from '../src/index';
import { chatCompletion, FAST, fakeProvider, type Fake } from './fakes';

// Keys' budgets and limits (issue 34, item 4): set by the key's owner or an admin, checked
// against the identity service's own keys, enforced on every call made with the key.

let fake: Fake;
let ids: ServiceUnderTest;
let svc: ServiceUnderTest;
const { admin, owner, stranger } = CALLERS;
const messages = [{ role: 'user', content: 'Hi' }];

beforeAll(async () => {
  // Each call: 1000 input and 500 output tokens of gpt-4o, 7500 micro-dollars.
  fake = await fakeProvider(chatCompletion('Hello!', 1000, 500));
  ids = await serviceUnderTest(passport, { env: AUTH_ENV, jobs: false });
  svc = await serviceUnderTest(inference, {
    env: {
      ...AUTH_ENV,
      ...FAST,
      OPENAI_API_KEY: 'sk-test',
      INFERENCE_BASE_URLS: `${fake.url}/v1`,
      PLATFORM_URL: await listen(ids.app),
    },
    jobs: false,
  });
  const made = await api(admin).post('/providers', {
    name: 'openai',
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${fake.url}/v1`,
  });
  expect(made.status).toBe(201);
});
// Each test's calls fall in one UTC minute (the minute's counts are what it checks).
beforeEach(() => clearOfMinuteEnd(15), 20_000);
afterAll(async () => {
  await svc?.close();
  await ids?.close();
  await fake?.close();
});

const api = (identity: Identity) => jsonApiAs(svc.app, inference.prefix, identity);

/** A key `owner` makes in passport, and the identity the gateway gives its calls. */
async function newKey(name: string): Promise<Identity & { kind: 'key' }> {
  const scopes = ['inference:invoke', 'inference:read'];
  const res = await jsonApiAs(ids.app, passport.prefix, owner).post('/keys', { name, scopes });
  expect(res.status).toBe(201);
  return {
    kind: 'key',
    keyId: res.body.data.id,
    name,
    role: 'member',
    scopes,
    owner: 'owner@example.com',
    team: null,
  };
}

/** A chat with `key`, as app.inject answers it (headers included). */
async function chat(
  key: Identity,
  model = 'gpt-4o',
  extra: { fallbacks?: string[]; headers?: Record<string, string> } = {},
) {
  const res = await svc.app.inject({
    method: 'POST',
    url: `${inference.prefix}/chat`,
    headers: { ...(await identityHeaders(key)), ...extra.headers },
    payload: { model, messages, ...(extra.fallbacks ? { fallbacks: extra.fallbacks } : {}) },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

it('lets the owner set a budget per day, enforces it with a 429 naming it, and reports what is left', async () => {
  const key = await newKey('budgeted');
  const set = await api(owner).put(`/keys/${key.keyId}/limits`, {
    budgetMicros: 10_000,
    period: 'day',
  });
  expect(set.status).toBe(200);
  expect(set.body.data).toMatchObject({ keyId: key.keyId, budgetMicros: 10_000, period: 'day' });
  expect((await chat(key)).status).toBe(200);
  // 7500 spent, under 10000: admitted, and it takes the key beyond its budget.
  expect((await chat(key)).status).toBe(200);
  const refused = await chat(key);
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('RATE_LIMITED');
  expect(refused.body.error.message).toBe(
    `Key ${key.keyId} reached its budget of $0.01 per day (budgetMicros 10000): $0.015 spent this day`,
  );
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  expect(fake.seen.length).toBe(2);

  const usage = await api(owner).get(`/keys/${key.keyId}/usage`);
  expect(usage.status).toBe(200);
  expect(usage.body.data).toMatchObject({
    keyId: key.keyId,
    day: { requests: 2, tokens: 3000, costMicros: 15_000 },
    month: { requests: 2, tokens: 3000, costMicros: 15_000 },
    budget: { budgetMicros: 10_000, period: 'day', spentMicros: 15_000, remainingMicros: 0 },
  });
  // The minute counts every admitted request, the refused one included.
  expect(usage.body.data.minute.requests).toBe(3);
  expect((await api(admin).get(`/keys/${key.keyId}/usage`)).status).toBe(200);
});

it('refuses requests beyond rpm and tokens beyond tpm, with Retry-After and the limit named', async () => {
  const fast = await newKey('rpm-limited');
  expect((await api(owner).put(`/keys/${fast.keyId}/limits`, { rpm: 2 })).status).toBe(200);
  expect((await chat(fast)).status).toBe(200);
  expect((await chat(fast)).status).toBe(200);
  const third = await chat(fast);
  expect(third.status).toBe(429);
  expect(third.body.error.message).toBe(
    `Key ${fast.keyId} reached its limit of 2 requests per minute (rpm); retry after the minute ends`,
  );
  expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(60);

  const wordy = await newKey('tpm-limited');
  expect((await api(admin).put(`/keys/${wordy.keyId}/limits`, { tpm: 1000 })).status).toBe(200);
  expect((await chat(wordy)).status).toBe(200);
  const refused = await chat(wordy);
  expect(refused.status).toBe(429);
  expect(refused.body.error.message).toBe(
    `Key ${wordy.keyId} reached its limit of 1000 tokens per minute (tpm): 1500 used this minute`,
  );
});

it('lets a key call only its models, fallbacks included, before any provider is called', async () => {
  const key = await newKey('models-limited');
  await api(owner).put(`/keys/${key.keyId}/limits`, { models: ['GPT-4o-mini'] });
  const before = fake.seen.length;
  const refused = await chat(key, 'gpt-4o');
  expect(refused.status).toBe(403);
  expect(refused.body.error.message).toBe(
    `Key ${key.keyId} may not call model gpt-4o: its limits allow only GPT-4o-mini`,
  );
  const fallback = await chat(key, 'gpt-4o-mini', { fallbacks: ['gpt-4o'] });
  expect(fallback.status).toBe(403);
  expect(fallback.body.error.message).toMatch(/may not call model gpt-4o:/);
  expect((await chat(key, 'gpt-4o-mini')).status).toBe(200);
  expect(fake.seen.length).toBe(before + 1);
});

it("caches a key's answers for its default ttl, counting a hit as a request with no tokens", async () => {
  const key = await newKey('cached');
  await api(owner).put(`/keys/${key.keyId}/limits`, { cacheTtlSeconds: 60 });
  const before = fake.seen.length;
  const miss = await chat(key);
  const hit = await chat(key);
  expect([miss.headers['x-platform-cache'], hit.headers['x-platform-cache']]).toEqual([
    'miss',
    'hit',
  ]);
  expect(hit.body.data.content).toBe('Hello!');
  // A request that says no-store is not answered from the cache.
  const fresh = await chat(key, 'gpt-4o', { headers: { 'cache-control': 'no-store' } });
  expect(fresh.headers['x-platform-cache']).toBeUndefined();
  expect(fake.seen.length).toBe(before + 2);
  const usage = (await api(owner).get(`/keys/${key.keyId}/usage`)).body.data;
  expect(usage.day).toMatchObject({ requests: 2, tokens: 3000, costMicros: 15_000 });
  expect(usage.minute.requests).toBe(3);
});

it('refuses bad limits with a clear 400 and changes nothing', async () => {
  const key = await newKey('kept');
  await api(owner).put(`/keys/${key.keyId}/limits`, { rpm: 5 });
  const bad: Array<[unknown, RegExp]> = [
    [{ period: 'day' }, /^period day needs budgetMicros/],
    [{ budgetMicros: 100 }, /^period is required with budgetMicros/],
    [{ budgetMicros: 100, period: 'week' }, /period/],
    [{ rpm: 0 }, /rpm/],
    [{ tpm: 'many' }, /tpm/],
    [{ budgetMicros: -1, period: 'day' }, /budgetMicros/],
    [{ models: [] }, /models/],
    [{ rps: 3 }, /rps/],
    [{ cacheTtlSeconds: 10 * 86_400 }, /^cacheTtlSeconds must be at most 86400/],
  ];
  for (const [body, message] of bad) {
    const res = await api(owner).put(`/keys/${key.keyId}/limits`, body);
    expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    expect(res.body.error.message).toMatch(message);
  }
  const usage = await api(owner).get(`/keys/${key.keyId}/usage`);
  expect(usage.body.data.limits).toMatchObject({ rpm: 5, tpm: null, budgetMicros: null });
});

it("refuses a stranger's changes and reads (403), and a key that does not exist (404)", async () => {
  const key = await newKey('private');
  for (const res of [
    await api(stranger).put(`/keys/${key.keyId}/limits`, { rpm: 1000 }),
    await api(stranger).get(`/keys/${key.keyId}/usage`),
  ]) {
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(
      /^stranger@example.com may not (update|read) inference.key/,
    );
  }
  expect((await api(owner).get(`/keys/${key.keyId}/usage`)).body.data.limits).toBeNull();
  for (const caller of [admin, owner]) {
    const res = await api(caller).put('/keys/no-such-key/limits', { rpm: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Key not found: no-such-key');
  }
  expect((await api(admin).get('/keys/no-such-key/usage')).status).toBe(404);
});
