import { sql } from '@platform/db';
import type { InferenceDatabase } from '../src/database';
import { sweep } from '../src/domain/sweep';
import { chatCompletion, fakeProvider, gateway, type Fake } from './fakes';

// The exact-match response cache (issue 34, item 6): opt-in per request, kept in the database
// with a ttl, a hit logged with no cost; swept when expired.

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
beforeAll(async () => {
  fake = await fakeProvider(chatCompletion('Cached answer', 10, 5));
  gw = await gateway({ OPENAI_API_KEY: 'sk-test', INFERENCE_BASE_URLS: `${fake.url}/v1` });
  const made = await gw.call('POST', '/providers', {
    name: 'openai',
    type: 'openai',
    defaultModel: 'gpt-4o',
    envVar: 'OPENAI_API_KEY',
    baseUrl: `${fake.url}/v1`,
  });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await gw?.svc.close();
  await fake?.close();
});

const chat = (content: string, headers: Record<string, string> = {}) =>
  gw.call('POST', '/chat', { model: 'gpt-4o', messages: [{ role: 'user', content }] }, headers);

it('answers the same request from the cache when asked, and logs the hit with no cost', async () => {
  const before = fake.seen.length;
  const miss = await chat('What is 2+2?', { 'x-platform-cache': 'ttl=60' });
  expect(miss.status).toBe(200);
  expect(miss.headers.get('x-platform-cache')).toBe('miss');
  const hit = await chat('What is 2+2?', { 'x-platform-cache': 'ttl=60' });
  expect(hit.status).toBe(200);
  expect(hit.headers.get('x-platform-cache')).toBe('hit');
  expect(hit.body.data).toMatchObject({
    content: 'Cached answer',
    model: 'gpt-4o',
    usage: { inputTokens: 10, outputTokens: 5 },
  });
  expect(hit.body.data.requestId).not.toBe(miss.body.data.requestId);
  expect(fake.seen.length).toBe(before + 1);
  // Cache-Control's max-age asks the same; another question is another entry.
  expect(
    (await chat('Other', { 'cache-control': 'max-age=60' })).headers.get('x-platform-cache'),
  ).toBe('miss');
  expect(
    (await chat('Other', { 'cache-control': 'max-age=60' })).headers.get('x-platform-cache'),
  ).toBe('hit');
  expect(fake.seen.length).toBe(before + 2);

  const log = (await gw.call('GET', `/requests/${hit.body.data.requestId}`)).body.data;
  expect(log).toMatchObject({ cached: true, costMicros: 0, status: 'ok', provider: 'openai' });
  const first = (await gw.call('GET', `/requests/${miss.body.data.requestId}`)).body.data;
  expect(first).toMatchObject({ cached: false, costMicros: 75 });
});

it('calls the provider without an ask, with no-store, or with ttl=0', async () => {
  const before = fake.seen.length;
  await chat('Fresh', { 'x-platform-cache': 'ttl=60' });
  for (const headers of [
    {},
    { 'cache-control': 'no-store' },
    { 'x-platform-cache': 'ttl=0' },
  ] as Record<string, string>[]) {
    const res = await chat('Fresh', headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-platform-cache')).toBeNull();
  }
  expect(fake.seen.length).toBe(before + 4);
});

it('refuses a malformed ask with a 400 naming the header, calling nothing', async () => {
  const before = fake.seen.length;
  const bad = await chat('Hi', { 'x-platform-cache': 'ttl=soon' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.message).toBe(
    'x-platform-cache must be ttl=<seconds> (a whole number, 0 for no caching), got "ttl=soon"',
  );
  const control = await chat('Hi', { 'cache-control': 'max-age=-5' });
  expect(control.status).toBe(400);
  expect(control.body.error.message).toMatch(/^Cache-Control max-age must be a whole number/);
  expect(fake.seen.length).toBe(before);
});

it('forgets an expired entry, and the sweep deletes it', async () => {
  await chat('Short-lived', { 'x-platform-cache': 'ttl=60' });
  const db = gw.svc.db.kysely;
  await sql`update inference.cache_entries set expires_at = now() - interval '1 second'`.execute(
    db,
  );
  const before = fake.seen.length;
  expect(
    (await chat('Short-lived', { 'x-platform-cache': 'ttl=60' })).headers.get('x-platform-cache'),
  ).toBe('miss');
  expect(fake.seen.length).toBe(before + 1);
  await sql`update inference.cache_entries set expires_at = now() - interval '1 second'`.execute(
    db,
  );
  expect(
    (await sweep(gw.svc.db.schema<InferenceDatabase>('inference'))).cacheEntries,
  ).toBeGreaterThan(0);
  const left = await sql<{ n: string }>`select count(*) as n from inference.cache_entries`.execute(
    db,
  );
  expect(Number(left.rows[0].n)).toBe(0);
});
