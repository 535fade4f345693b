import type { Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  identityHeaders,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  type ServiceUnderTest,
} from '@platform/testing';
import { inference } from '../src/index';
import { chatCompletion, FAST, fakeProvider, type Fake } from './fakes';

// GET /usage filters by key, app, caller and model (issue 34, item 8), costs in micro-dollars.

let fake: Fake;
let svc: ServiceUnderTest;
const { admin, owner } = CALLERS;
const bot = keyCaller(['inference:invoke', 'inference:read'], { name: 'bot' });
const sandboxApp: Identity = {
  kind: 'key',
  keyId: 'app:sbx1',
  name: 'app',
  role: 'member',
  scopes: ['inference:invoke'],
  owner: null,
  team: null,
};

beforeAll(async () => {
  fake = await fakeProvider(chatCompletion('Hi', 10, 5));
  svc = await serviceUnderTest(inference, {
    env: { ...AUTH_ENV, ...FAST, OPENAI_API_KEY: 'sk-test', INFERENCE_BASE_URLS: `${fake.url}/v1` },
    jobs: false,
  });
  await as(admin).post('/providers', {
    name: 'openai',
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${fake.url}/v1`,
  });
  for (const [identity, model] of [
    [owner, 'gpt-4o'],
    [owner, 'mock-1'],
    [bot, 'gpt-4o'],
    [sandboxApp, 'mock-1'],
  ] as const) {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${inference.prefix}/chat`,
      headers: await identityHeaders(identity),
      payload: { model, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(async () => {
  await svc?.close();
  await fake?.close();
});

const as = (identity: Identity) => jsonApiAs(svc.app, inference.prefix, identity);
const usage = async (identity: Identity, query: string) => {
  const res = await as(identity).get(`/usage?${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    summary: { totalRequests: number; totalCostMicros: number };
    requests: Array<{ keyId: string | null; app: string | null; model: string; createdBy: string }>;
  };
};

it('filters by key, app, caller and model, alone or together, with the cost in micro-dollars', async () => {
  const byKey = await usage(admin, 'key=k-bot');
  expect(byKey.summary).toMatchObject({ totalRequests: 1, totalCostMicros: 75 });
  expect(byKey.requests[0]).toMatchObject({ keyId: 'k-bot', createdBy: 'keyholder@example.com' });
  const byApp = await usage(admin, 'app=sbx1');
  expect(byApp.requests.map((r) => [r.app, r.model, r.keyId])).toEqual([['sbx1', 'mock-1', null]]);
  expect((await usage(admin, 'caller=OWNER@example.com')).summary.totalRequests).toBe(2);
  const byModel = await usage(admin, 'model=GPT-4O');
  expect(byModel.summary).toMatchObject({ totalRequests: 2, totalCostMicros: 150 });
  const both = await usage(admin, 'caller=owner@example.com&model=mock-1');
  expect(both.requests.map((r) => r.model)).toEqual(['mock-1']);
  expect((await usage(admin, 'key=k-none')).summary.totalRequests).toBe(0);
});

it('keeps a caller to their own calls whatever the filter, and refuses an empty one', async () => {
  expect((await usage(owner, 'key=k-bot')).summary.totalRequests).toBe(0);
  expect((await usage(owner, 'model=gpt-4o')).summary.totalRequests).toBe(1);
  expect((await usage(bot, '')).requests.map((r) => r.keyId)).toEqual(['k-bot']);
  for (const query of ['key=', 'app=', 'caller=', 'model=']) {
    const res = await as(admin).get(`/usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(query.slice(0, -1));
  }
});
