import { authSettings, platformClient, type Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  eventually,
  identityHeaders,
  jsonApiAs,
  keyCaller,
  listen,
  serviceUnderTest,
  type ServiceUnderTest,
} from '@platform/testing';
import { billing } from '@platform/billing';
import type { InferenceDatabase } from '../src/database';
import { exportSpend } from '../src/domain/spend';
import { inference } from '../src/index';
import { chatCompletion, FAST, fakeProvider, type Fake } from './fakes';

// Spend reaches billing (issue 34, item 7): a periodic durable job writes the inference cost of
// each UTC day per app, key and model as billing items, idempotently by their providerRef.

let fake: Fake;
let books: ServiceUnderTest;
let svc: ServiceUnderTest;
let billingUrl: string;
const { admin, owner } = CALLERS;
const bot = keyCaller(['inference:invoke'], { name: 'bot' });
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
  // Each gpt-4o call: 100k input and 50k output tokens, 750 000 micro-dollars (75 cents).
  fake = await fakeProvider(chatCompletion('Spent', 100_000, 50_000));
  books = await serviceUnderTest(billing, { env: AUTH_ENV, jobs: false });
  billingUrl = await listen(books.app);
  svc = await serviceUnderTest(inference, {
    env: {
      ...AUTH_ENV,
      ...FAST,
      OPENAI_API_KEY: 'sk-test',
      INFERENCE_BASE_URLS: `${fake.url}/v1`,
      INFERENCE_SPEND_INTERVAL_MS: '500',
      PLATFORM_URL: billingUrl,
    },
    jobs: { pollMs: 100 },
  });
  await jsonApiAs(svc.app, inference.prefix, admin).post('/providers', {
    name: 'openai',
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${fake.url}/v1`,
  });
});
afterAll(async () => {
  await svc?.close();
  await books?.close();
  await fake?.close();
});

async function chat(identity: Identity, model: string) {
  const res = await svc.app.inject({
    method: 'POST',
    url: `${inference.prefix}/chat`,
    headers: await identityHeaders(identity),
    payload: { model, messages: [{ role: 'user', content: 'Hi' }] },
  });
  expect(res.statusCode).toBe(200);
}

const items = async () =>
  (await jsonApiAs(books.app, billing.prefix, admin).get('/items?provider=inference&limit=100'))
    .body.data as Array<{ providerRef: string; amount: number; stageApp: string | null }>;

it('writes each day’s cost per app, key and model into billing, once', async () => {
  await chat(owner, 'gpt-4o');
  await chat(owner, 'gpt-4o');
  await chat(bot, 'gpt-4o');
  await chat(bot, 'gpt-4o-mini');
  await chat(sandboxApp, 'gpt-4o');
  const day = new Date().toISOString().slice(0, 10);
  await eventually(async () => (await items()).length === 4, {
    timeout: 10_000,
    what: 'the spend job',
  });
  const written = Object.fromEntries((await items()).map((i) => [i.providerRef, i]));
  expect(Object.keys(written).sort()).toEqual(
    [
      `${day}:-:-:gpt-4o`,
      `${day}:-:k-bot:gpt-4o`,
      `${day}:-:k-bot:gpt-4o-mini`,
      `${day}:sbx1:-:gpt-4o`,
    ].sort(),
  );
  expect(written[`${day}:-:-:gpt-4o`]).toMatchObject({ amount: 150, stageApp: null });
  expect(written[`${day}:-:k-bot:gpt-4o`].amount).toBe(75);
  // 15 000 + 30 000 micro-dollars: 4.5 cents, rounded.
  expect(written[`${day}:-:k-bot:gpt-4o-mini`].amount).toBe(5);
  expect(written[`${day}:sbx1:-:gpt-4o`]).toMatchObject({ amount: 75, stageApp: 'sbx1' });

  // In billing's reports.
  const summary = await jsonApiAs(books.app, billing.prefix, admin).get(
    '/reports/summary?provider=inference',
  );
  expect(summary.body.data).toMatchObject({ totalAmount: 305, itemCount: 4, currency: 'USD' });

  // A later call the same day: the next run updates that day's item, and adds none.
  await chat(bot, 'gpt-4o');
  await eventually(
    async () =>
      (await items()).find((i) => i.providerRef === `${day}:-:k-bot:gpt-4o`)?.amount === 150,
    { timeout: 10_000, what: 'the updated item' },
  );
  expect(await items()).toHaveLength(4);

  // A run over the same totals writes nothing (what two instances or a retried run do).
  const platform = platformClient('inference', { url: billingUrl }, authSettings(AUTH_ENV));
  const db = svc.db.schema<InferenceDatabase>('inference');
  expect(await exportSpend(db, platform)).toEqual({ created: 0, updated: 0, unchanged: 4 });
  expect(await items()).toHaveLength(4);
});
