import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import {
  eventually,
  sleep,
  startLoad,
  startPostgres,
  startProcess,
  type Outcome,
  type PostgresServer,
  type RunningProcess,
} from '@platform/testing';

// PostgreSQL stopped and started again under load, twice (a clean stop, then a crash), below a
// gateway process built as `npm start` runs it: nothing crashes, every request is answered, those
// that need the database while it is down get a 503 envelope at once, the platform recovers by
// itself, and every write that was answered with success is in the database afterwards.

const gatewayMain = join(__dirname, '..', 'dist', 'main.js');

let server: PostgresServer;
let gateway: RunningProcess;
beforeAll(async () => {
  server = await startPostgres();
  gateway = await startProcess(gatewayMain, { DATABASE_URL: server.url, LOG_LEVEL: 'fatal' });
});
afterAll(async () => {
  await gateway?.stop();
  await server?.remove();
});

async function health() {
  const res = await request(`${gateway.url}/api/v1/health`);
  return (await res.body.json()) as {
    data: { status: string; services: Array<{ name: string; status: string; error?: string }> };
  };
}

async function writes() {
  const res = await request(`${gateway.url}/api/v1/pulse/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'probe' }),
  });
  await res.body.dump();
  return res.statusCode === 201;
}

it('answers 503 while PostgreSQL is down, recovers by itself, and loses no acknowledged write', async () => {
  const load = startLoad(gateway.url, (n) =>
    n % 4 === 3
      ? { method: 'GET', path: '/api/v1/pulse/events?limit=5' }
      : { method: 'POST', path: '/api/v1/pulse/events', body: { name: 'outage', userId: `u${n}` } },
  );
  const outages: Array<{ from: number; to: number; recoveredMs: number }> = [];
  const degraded: Awaited<ReturnType<typeof health>>[] = [];
  await sleep(1000);
  for (const mode of ['fast', 'immediate'] as const) {
    await server.stop(mode);
    const from = performance.now();
    await sleep(1500);
    degraded.push(await health());
    const to = performance.now();
    await server.start();
    const startedAt = performance.now();
    await eventually(writes, { timeout: 5000, what: 'a write after PostgreSQL came back' });
    const recoveredMs = performance.now() - startedAt;
    outages.push({ from, to, recoveredMs });
    await sleep(1000);
  }
  const outcomes = await load.stop();

  // Every request got a whole answer: the process never went away.
  expect(outcomes.filter((o) => o.failure)).toEqual([]);
  const [ok, unavailable, other] = partition(outcomes);
  expect(other).toEqual([]);
  expect(ok.length).toBeGreaterThan(100);
  expect(unavailable.length).toBeGreaterThan(10);
  for (const o of unavailable)
    expect(o.body).toEqual({
      success: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is unavailable; try again later',
      },
    });
  // While the server was down, every request was refused with a 503 within a second.
  for (const { from, to } of outages) {
    const during = outcomes.filter((o) => o.sentAt > from + 50 && o.doneAt < to);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((o) => o.status !== 503)).toEqual([]);
  }
  expect(Math.max(...unavailable.map((o) => o.doneAt - o.sentAt))).toBeLessThan(1000);

  // Health said which services were down, and why.
  for (const report of degraded) {
    expect(report.data.status).toBe('degraded');
    for (const service of report.data.services)
      expect(service).toMatchObject({
        status: 'unhealthy',
        error: expect.stringContaining('database unreachable'),
      });
  }
  expect((await health()).data.status).toBe('ok');

  // Every write answered 201 is stored.
  const acknowledged = ok
    .filter((o) => o.request.method === 'POST')
    .map((o) => (o.body?.data as { id: string }).id);
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from pulse.events');
  await client.end();
  const stored = new Set(rows.map((r) => r.id));
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(50);
  console.log(
    `outage: ${outcomes.length} requests, ${ok.length} ok, ${unavailable.length} 503; ` +
      `recovered after ${outages.map((o) => Math.round(o.recoveredMs)).join(' and ')} ms`,
  );
}, 60_000);

function partition(outcomes: Outcome[]) {
  const ok = outcomes.filter((o) => o.status !== undefined && o.status < 300);
  const unavailable = outcomes.filter((o) => o.status === 503);
  const other = outcomes
    .filter((o) => !ok.includes(o) && !unavailable.includes(o))
    .map((o) => ({ status: o.status, body: o.body }));
  return [ok, unavailable, other] as const;
}

it('starts while PostgreSQL is still down and comes up with it; a database that cannot be used stops it at once', async () => {
  await gateway.stop();
  await server.stop();
  const starting = startProcess(gatewayMain, { DATABASE_URL: server.url, LOG_LEVEL: 'fatal' });
  await sleep(1500);
  await server.start();
  gateway = await starting;
  expect((await health()).data.status).toBe('ok');

  const wrong = new URL(server.url);
  wrong.pathname = '/no_such_database';
  await expect(
    startProcess(gatewayMain, { DATABASE_URL: wrong.toString(), DATABASE_WAIT_MS: '60000' }),
  ).rejects.toThrow(
    /exited with code 1[^]*The database refused the connection: database "no_such_database" does not exist/,
  );
}, 60_000);
