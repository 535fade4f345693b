import {
  eventually,
  oneDatabaseTwice,
  serviceUnderTest,
  type ServiceUnderTest,
} from '@platform/testing';
import { inference } from '../src/index';
import { chatCompletion, fakeProvider, openAiError, type Fake } from './fakes';

// Load balancing (issue 34, item 5): providers of one type share its models by weight; one that
// fails is cooled down in the database, so every instance skips it for a while.

let good: Fake;
let bad: Fake;
let dbs: Awaited<ReturnType<typeof oneDatabaseTwice>>;
let one: ServiceUnderTest;
let two: ServiceUnderTest;
beforeAll(async () => {
  good = await fakeProvider(chatCompletion('Fine', 3, 2));
  bad = await fakeProvider(openAiError(500, 'The server had an error', 'server_error', null));
  dbs = await oneDatabaseTwice();
  const env = {
    INFERENCE_MAX_ATTEMPTS: '1',
    OPENAI_API_KEY: 'sk-test',
    INFERENCE_BASE_URLS: `${good.url}/v1,${bad.url}/v1`,
    INFERENCE_COOLDOWN_MS: '60000',
  };
  one = await serviceUnderTest(inference, { db: dbs.first, env, jobs: false });
  two = await serviceUnderTest(inference, { db: dbs.second, env, jobs: false });
});
afterAll(async () => {
  await one?.app.close();
  await two?.app.close();
  await dbs?.close();
  await good?.close();
  await bad?.close();
});

async function send(svc: ServiceUnderTest, method: string, url: string, payload?: object) {
  const res = await svc.app.inject({
    method: method as 'GET',
    url: `${inference.prefix}${url}`,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

const provider = (name: string, url: string, weight: number | null) =>
  send(one, 'POST', '/providers', {
    name,
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${url}/v1`,
    weight,
  });
const chat = (svc: ServiceUnderTest) =>
  send(svc, 'POST', '/chat', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });

it('refuses a weight out of range, and changes nothing', async () => {
  for (const weight of [-1, 1001, 1.5]) {
    const res = await provider('odd', good.url, weight);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/weight/);
  }
  expect((await send(one, 'GET', '/providers/odd')).status).toBe(404);
});

it('spreads a model over its providers by weight and skips a failing one on every instance', async () => {
  // The failing provider is nearly always chosen first: it fails once, then cools down.
  expect((await provider('flaky', bad.url, 1000)).status).toBe(201);
  expect((await provider('steady', good.url, 1)).status).toBe(201);
  // Weight 0: never by model name.
  expect((await provider('spare', good.url, 0)).body.data.weight).toBe(0);
  for (let i = 0; i < 6; i++) expect((await chat(one)).status).toBe(200);
  expect(bad.seen.length).toBe(1);
  // The other instance reads the cool-down from the database: it never calls the failing one.
  for (let i = 0; i < 6; i++) expect((await chat(two)).status).toBe(200);
  expect(bad.seen.length).toBe(1);
  expect(good.seen.length).toBe(12);

  // The other instance's log rows are written within REQUEST_LOG_FLUSH_MS.
  let rows: Array<{ provider: string; attempts: number }> = [];
  await eventually(
    async () =>
      (rows = (await send(one, 'GET', '/usage?limit=20')).body.data.requests).length === 12,
    { timeout: 3000, what: "both instances' log rows" },
  );
  // The log names the provider that served each call; the first tried the failing one first.
  expect(new Set(rows.map((r) => r.provider))).toEqual(new Set(['steady']));
  expect(rows.map((r) => r.attempts).sort()).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
});
