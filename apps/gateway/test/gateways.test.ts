import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { eventually, sharedPostgres, startProcess, type RunningProcess } from '@platform/testing';

// Two gateway processes on one PostgreSQL database: a runtime flag override made on one is seen
// by the other within a second, also after the other lost its listening connection.

const gatewayMain = join(__dirname, '..', 'dist', 'main.js');

let database: Awaited<ReturnType<typeof sharedPostgres>>;
let first: RunningProcess;
let second: RunningProcess;
beforeAll(async () => {
  database = await sharedPostgres();
  first = await startProcess(gatewayMain, { DATABASE_URL: database.url });
  second = await startProcess(gatewayMain, { DATABASE_URL: database.url });
}, 90_000); // two gateway processes, each migrating on start: over 30 s on a loaded machine
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await database?.remove();
});

async function call(base: string, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: object) {
  const res = await request(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.statusCode,
    body: (await res.body.json()) as { data: { enabled: boolean } },
  };
}

const pulseEnabled = async (base: string) =>
  (await call(base, 'GET', '/api/v1/features/pulse')).body.data.enabled;
const pulseAnswers = async (base: string) =>
  (await call(base, 'GET', '/api/v1/pulse/events')).status;

it('sees an override set or cleared on the other gateway within a second', async () => {
  expect(await call(first.url, 'PUT', '/api/v1/features/pulse', { enabled: false })).toMatchObject({
    status: 200,
    body: { data: { enabled: false } },
  });
  const setAt = performance.now();
  await eventually(async () => !(await pulseEnabled(second.url)), {
    timeout: 1000,
    what: 'flag off',
  });
  const seenMs = performance.now() - setAt;
  expect(await pulseAnswers(second.url)).toBe(404);

  expect((await call(second.url, 'DELETE', '/api/v1/features/pulse')).status).toBe(200);
  const clearedAt = performance.now();
  await eventually(async () => pulseEnabled(first.url), { timeout: 1000, what: 'flag cleared' });
  const clearedMs = performance.now() - clearedAt;
  expect(await pulseAnswers(first.url)).toBe(200);
  console.log(
    `flags: seen after ${Math.round(seenMs)} ms, clearing after ${Math.round(clearedMs)} ms`,
  );
});

it('listens again after losing its connection, and catches up on what it missed', async () => {
  // Every LISTEN connection is cut; the next change happens before they are back.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const { rows } = await admin.query<{ ok: boolean }>(
    `select pg_terminate_backend(pid) as ok from pg_stat_activity
     where datname = current_database() and query like 'LISTEN%'`,
  );
  await admin.end();
  expect(rows.length).toBe(2);
  await call(first.url, 'PUT', '/api/v1/features/pulse', { enabled: false });

  await eventually(async () => !(await pulseEnabled(second.url)), {
    timeout: 3000,
    what: 'flag off after reconnect',
  });
  await call(second.url, 'DELETE', '/api/v1/features/pulse');
  await eventually(async () => pulseEnabled(first.url), {
    timeout: 1000,
    what: 'flag cleared after reconnect',
  });
});
