import { join } from 'node:path';
import { newApiKey } from '@platform/passport';
import {
  clearOfMinuteEnd,
  AUTH_ENV,
  eventually,
  sharedPostgres,
  startProcess,
  type RunningProcess,
} from '@platform/testing';
import { chatCompletion, fakeProvider, type Fake } from './fakes';

// Keys' limits across two gateway processes on one PostgreSQL database (issue 34, item 4): the
// counts live in the database, so what one gateway counted the other refuses beyond.

const gatewayMain = join(__dirname, '..', '..', 'gateway', 'dist', 'main.js');
const BOOTSTRAP = newApiKey();

let database: Awaited<ReturnType<typeof sharedPostgres>>;
let fake: Fake;
let first: RunningProcess;
let second: RunningProcess;
beforeAll(async () => {
  // Each call: 1000 input and 500 output tokens of gpt-4o, 7500 micro-dollars.
  fake = await fakeProvider(chatCompletion('Hello!', 1000, 500));
  database = await sharedPostgres();
  const env = {
    ...AUTH_ENV,
    DATABASE_URL: database.url,
    PLATFORM_API_KEY: BOOTSTRAP,
    OPENAI_API_KEY: 'sk-test',
    INFERENCE_BASE_URLS: `${fake.url}/v1`,
  };
  first = await startProcess(gatewayMain, env, { timeoutMs: 60_000 });
  second = await startProcess(gatewayMain, env, { timeoutMs: 60_000 });
}, 120_000);
// Each test's calls fall in one UTC minute (the minute's counts are what it checks).
beforeEach(() => clearOfMinuteEnd(15), 20_000);
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await database?.remove();
  await fake?.close();
});

async function call(base: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A key with these limits: its id and the key itself. */
async function keyWith(name: string, limits: object) {
  const made = await call(first.url, 'POST', '/passport/keys', BOOTSTRAP, {
    name,
    scopes: ['inference:invoke', 'inference:read'],
  });
  expect(made.status).toBe(201);
  const { id, key } = made.body.data as { id: string; key: string };
  const set = await call(second.url, 'PUT', `/inference/keys/${id}/limits`, BOOTSTRAP, limits);
  expect(set.status).toBe(200);
  return { id, key };
}

const chat = (base: string, key: string) =>
  call(base, 'POST', '/inference/chat', key, {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Hi' }],
  });

/** Waits until the other gateway reads the key's counts (written as each call ends). */
const counted = (
  id: string,
  what: (usage: { day: { costMicros: number }; minute: { tokens: number } }) => boolean,
) =>
  eventually(
    async () =>
      what((await call(second.url, 'GET', `/inference/keys/${id}/usage`, BOOTSTRAP)).body.data),
    { timeout: 5000, what: 'usage counted' },
  );

it('counts a key’s requests per minute across both gateways', async () => {
  const made = await call(first.url, 'POST', '/inference/providers', BOOTSTRAP, {
    name: 'openai',
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${fake.url}/v1`,
  });
  expect(made.status).toBe(201);
  const { key } = await keyWith('rpm-shared', { rpm: 3 });
  for (const base of [first.url, second.url, first.url])
    expect((await chat(base, key)).status).toBe(200);
  const refused = await chat(second.url, key);
  expect(refused.status).toBe(429);
  expect(refused.body.error.message).toMatch(/limit of 3 requests per minute \(rpm\)/);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
});

it('refuses on one gateway the budget and tokens spent through the other', async () => {
  const budget = await keyWith('budget-shared', { budgetMicros: 10_000, period: 'month' });
  expect((await chat(first.url, budget.key)).status).toBe(200);
  await counted(budget.id, (u) => u.day.costMicros === 7500);
  expect((await chat(second.url, budget.key)).status).toBe(200);
  await counted(budget.id, (u) => u.day.costMicros === 15_000);
  const broke = await chat(first.url, budget.key);
  expect(broke.status).toBe(429);
  expect(broke.body.error.message).toMatch(/reached its budget of \$0.01 per month/);

  const tokens = await keyWith('tpm-shared', { tpm: 1000 });
  expect((await chat(second.url, tokens.key)).status).toBe(200);
  await counted(tokens.id, (u) => u.minute.tokens === 1500);
  const refused = await chat(first.url, tokens.key);
  expect(refused.status).toBe(429);
  expect(refused.body.error.message).toMatch(/limit of 1000 tokens per minute \(tpm\)/);
});
