import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import {
  eventually,
  sharedPostgres,
  sleep,
  startLoad,
  startProcess,
  type RunningProcess,
} from '@platform/testing';

// A proxied service killed (SIGKILL) under load, then started again: the gateway serves it
// in-process meanwhile (only requests under way at the kill may fail, and those with a 502
// envelope), health says so, and once the service is back, traffic goes to it again. Both share
// one PostgreSQL database, as in production, so every acknowledged write is in one place.

const root = join(__dirname, '..', '..', '..');
const gatewayMain = join(root, 'apps/gateway/dist/main.js');
const pulseMain = join(root, 'apps/pulse/dist/main.js');

let database: Awaited<ReturnType<typeof sharedPostgres>>;
let gateway: RunningProcess;
let pulse: RunningProcess;
let port: number;
beforeAll(async () => {
  database = await sharedPostgres();
  pulse = await startProcess(pulseMain, { DATABASE_URL: database.url });
  port = Number(new URL(pulse.url).port);
  gateway = await startProcess(gatewayMain, {
    DATABASE_URL: database.url,
    PULSE_PROXY_URL: pulse.url,
    PROXY_RETRY_MS: '500',
  });
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), pulse?.stop()]);
  await database?.remove();
});

async function pulseHealth() {
  const res = await request(`${gateway.url}/api/v1/health`);
  const body = (await res.body.json()) as { data: { services: Array<{ name: string }> } };
  return body.data.services.find((s) => s.name === 'pulse');
}

it('serves in-process while the proxied service is dead, and goes back to it when it returns', async () => {
  const concurrency = 16;
  const load = startLoad(
    gateway.url,
    (n) => ({
      method: 'POST',
      path: '/api/v1/pulse/events',
      body: { name: 'upstream', userId: `u${n}` },
    }),
    { concurrency },
  );
  await sleep(1000);
  await pulse.kill('SIGKILL');
  const killedAt = performance.now();
  await sleep(1500);
  expect(await pulseHealth()).toMatchObject({ status: 'ok', via: 'fallback' });

  // The new process may serve requests before startProcess has seen it ready.
  const restartingAt = performance.now();
  pulse = await startProcess(pulseMain, { DATABASE_URL: database.url }, { port });
  const restartedAt = performance.now();
  await eventually(
    () => load.outcomes.some((o) => o.sentAt > restartedAt && !o.headers?.['x-served-by']),
    { timeout: 5000, what: 'traffic going back to the restarted service' },
  );
  const backMs = performance.now() - restartedAt;
  await sleep(500);
  expect(await pulseHealth()).toMatchObject({ status: 'ok', via: 'proxy' });
  const outcomes = await load.stop();

  const failed = outcomes.filter((o) => o.failure || o.status !== 201);
  // Only requests under way at the kill failed, each with a 502 envelope, never a cut answer.
  expect(failed.length).toBeLessThanOrEqual(concurrency);
  for (const o of failed) {
    expect(o.sentAt).toBeLessThan(killedAt);
    expect(o.body?.error?.code).toBe('BAD_GATEWAY');
  }
  const servedBy = (from: number, to: number) =>
    outcomes
      .filter((o) => o.status === 201 && o.sentAt > from && o.doneAt < to)
      .map((o) => o.headers?.['x-served-by'] ?? 'proxy');
  expect(new Set(servedBy(killedAt + 100, restartingAt))).toEqual(new Set(['in-process-fallback']));
  expect(servedBy(restartedAt + backMs + 100, Infinity).length).toBeGreaterThan(0);
  expect(new Set(servedBy(restartedAt + backMs + 100, Infinity))).toEqual(new Set(['proxy']));

  // Every write answered 201, by either, is stored.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from pulse.events');
  await client.end();
  const stored = new Set(rows.map((r) => r.id));
  const acknowledged = outcomes.filter((o) => o.status === 201);
  expect(acknowledged.filter((o) => !stored.has((o.body?.data as { id: string }).id))).toEqual([]);
  console.log(
    `upstream: ${outcomes.length} requests, ${failed.length} failed at the kill, ` +
      `${servedBy(killedAt, restartedAt).length} served in-process, back to the service ${Math.round(backMs)} ms after its restart`,
  );
}, 90_000);
