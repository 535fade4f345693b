import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { INTERRUPTED } from '@platform/core';
import { openDatabase, sql, type PlatformDatabase } from '@platform/db';
import {
  jsonApi,
  migratedService,
  processStorage,
  serviceUnderTest,
  sleep,
  startProcess,
  type ServiceUnderTest,
} from '@platform/testing';
import { UPLOAD_CUT_SHORT } from '../src/domain/adapters/focus-upload';
import { billing } from '../src/index';
import { focusStream } from './focus-fixtures';
import { MiB, paused, stagingJob, stored, upload } from './upload-helpers';

// Sync jobs across a crash: a real billing process killed mid-sync, and a restarted service that
// finds what it left. A crashed process's lease runs for 30 s; rather than wait, the tests expire
// it in the database, which is all the passing of that time changes.

const TOKEN = 'sk-restart-secret-0987654321';
const main = join(__dirname, '..', 'dist', 'main.js');
const FOCUS = [
  'BilledCost,BillingCurrency,ChargePeriodStart,ServiceName',
  '12.34,USD,2026-01-01T00:00:00Z,Amazon EC2',
  '0.5,USD,2026-01-02T00:00:00Z,Amazon S3',
].join('\n');

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An OpenAI costs endpoint that answers after `delayMs` (never, when Infinity). */
async function slowProvider(delayMs: number) {
  let calls = 0;
  const server: Server = createServer((_req, res) => {
    calls += 1;
    if (delayMs === Infinity) return;
    setTimeout(() => {
      const body = { data: [{ start_time: 1767225600, results: [] }], has_more: false };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls };
}

/** A database for processes, migrated already: a new PostgreSQL database, or a PGlite data directory. */
async function storage(): Promise<{
  env: Record<string, string>;
  open(): Promise<PlatformDatabase>;
}> {
  const made = await processStorage(migratedService(billing));
  cleanups.push(made.remove);
  return {
    env: made.env,
    open: () => openDatabase({ url: made.env.DATABASE_URL, dataDir: made.dataDir }),
  };
}

async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/** What a crash's lease expiry changes: every running job becomes free to take over. */
const expireLeases = (db: PlatformDatabase) =>
  sql`update billing.jobs set lease_until = now() - interval '1 second' where status = 'running'`.execute(
    db.kysely,
  );

/** Everything stored in the billing schema, as text. */
async function dump(db: PlatformDatabase) {
  const { rows } = await sql<{ dump: string | null }>`select concat_ws(' ',
      (select string_agg(t::text, ' ') from billing.sync_jobs t),
      (select string_agg(j::text, ' ') from billing.jobs j)) as dump`.execute(db.kysely);
  return rows[0].dump ?? '';
}

it('fails a token sync cleanly when its process is killed mid-sync: never stuck running, never the token', async () => {
  const provider = await slowProvider(Infinity);
  const store = await storage();
  const env = { ...store.env, BILLING_OPENAI_URL: provider.url };
  const first = await startProcess(main, env);
  cleanups.push(() => first.stop());
  const prefix = `${first.url}/api/v1/billing`;
  const body = { provider: 'openai', token: TOKEN, from: '2026-01-01', to: '2026-01-02' };
  const started = await call('POST', `${prefix}/sync`, body);
  expect(started.status).toBe(202);
  const id = started.body.data.id;
  while (provider.calls() === 0) await sleep(20);
  await first.kill('SIGKILL');

  const db = await store.open();
  try {
    // What the killed process left: both records running, the durable one held by it.
    const left = await sql<{ sync: string; job: string; resumable: boolean }>`
      select s.status as sync, j.status as job, j.resumable from billing.sync_jobs s
      join billing.jobs j on j.payload->>'syncJobId' = s.id`.execute(db.kysely);
    expect(left.rows).toEqual([{ sync: 'running', job: 'running', resumable: false }]);
    expect(await dump(db)).not.toContain(TOKEN);
    await expireLeases(db);
  } finally {
    await db.close();
  }

  const second = await startProcess(main, env);
  cleanups.push(() => second.stop());
  let job;
  do {
    await sleep(50);
    job = (await call('GET', `${second.url}/api/v1/billing/sync/jobs/${id}`)).body.data;
  } while (job.status === 'running');
  expect(job).toMatchObject({ status: 'failed', error: INTERRUPTED, itemsCreated: 0 });
  expect(job.completedAt).not.toBeNull();
  expect(provider.calls()).toBe(1);
  expect([...first.output, ...second.output].join('\n')).not.toContain(TOKEN);
}, 60_000);

it('fails an upload whose process died before the whole file had arrived, and drops its rows', async () => {
  const store = await storage();
  const first = await startProcess(main, store.env);
  cleanups.push(() => first.stop());
  const client = paused(focusStream(3 * MiB).body, MiB);
  void upload(first.url, client.body).catch(() => undefined);
  const job = await stagingJob({
    get: (path) => call('GET', `${first.url}/api/v1/billing${path}`),
  });
  await first.kill('SIGKILL');
  client.resume();
  const db = await store.open();
  try {
    await expireLeases(db);
  } finally {
    await db.close();
  }
  const second = await startProcess(main, store.env);
  cleanups.push(() => second.stop());
  let found;
  do {
    await sleep(50);
    found = (await call('GET', `${second.url}/api/v1/billing/sync/jobs/${job.id}`)).body.data;
  } while (found.status === 'running');
  expect(found).toMatchObject({ status: 'failed', error: UPLOAD_CUT_SHORT, itemsCreated: 0 });
  const after = await store.open();
  try {
    expect(await stored(after)).toMatchObject({ staged: 0 });
  } finally {
    await after.close();
  }
}, 60_000);

describe('a restarted service', () => {
  let svc: ServiceUnderTest;
  const api = () => jsonApi(svc.app, billing.prefix);
  const tables = () => svc.db.kysely;
  afterEach(() => svc.close());

  async function finished(id: string) {
    for (;;) {
      const job = (await api().get(`/sync/jobs/${id}`)).body.data;
      if (job.status !== 'running') return job;
      await sleep(20);
    }
  }

  /** Leaves the sync's rows as a process that died during its first run leaves them. */
  async function orphan(id: string, syncFinished: boolean) {
    // One transaction: the runner polls every 20 ms and must not claim the job between these
    // statements (it would see the sync still completed and leave it alone).
    await tables()
      .transaction()
      .execute(async (tx) => {
        if (!syncFinished) {
          await sql`delete from billing.items`.execute(tx);
          await sql`update billing.sync_jobs set status = 'running', completed_at = null,
            items_created = 0 where id = ${id}`.execute(tx);
        }
        await sql`update billing.jobs set status = 'running', locked_by = 'dead', attempts = 1,
          lease_until = now() - interval '1 second', result = null
          where payload->>'syncJobId' = ${id}`.execute(tx);
      });
  }
  const durableJob = async (id: string) =>
    (
      await sql<{ status: string; attempts: number }>`select status, attempts from billing.jobs
        where payload->>'syncJobId' = ${id}`.execute(tables())
    ).rows[0];

  beforeEach(async () => {
    svc = await serviceUnderTest(billing, { jobs: { pollMs: 20 } });
  });

  it('runs again a FOCUS sync whose process died, since its CSV is stored', async () => {
    const res = await api().post('/sync', {
      provider: 'focus',
      csv: FOCUS,
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(await finished(res.body.data.id)).toMatchObject({
      status: 'completed',
      itemsCreated: 2,
    });
    await orphan(res.body.data.id, false);
    expect((await api().get(`/sync/jobs/${res.body.data.id}`)).body.data.status).toBe('running');
    expect(await finished(res.body.data.id)).toMatchObject({
      status: 'completed',
      itemsCreated: 2,
    });
    expect((await api().get('/items?provider=focus')).body.data).toHaveLength(2);
    expect(await durableJob(res.body.data.id)).toEqual({ status: 'completed', attempts: 2 });
  });

  it('leaves alone a sync finished by a run that died before its job did', async () => {
    const res = await api().post('/sync', {
      provider: 'focus',
      csv: FOCUS,
      from: '2026-01-01',
      to: '2026-01-31',
    });
    const done = await finished(res.body.data.id);
    await orphan(res.body.data.id, true);
    for (let i = 0; i < 50 && (await durableJob(res.body.data.id)).status === 'running'; i++)
      await sleep(20);
    expect(await durableJob(res.body.data.id)).toEqual({ status: 'completed', attempts: 2 });
    expect((await api().get(`/sync/jobs/${res.body.data.id}`)).body.data).toEqual(done);
  });

  it('waits on close for a sync under way', async () => {
    const provider = await slowProvider(300);
    await svc.close();
    svc = await serviceUnderTest(billing, { env: { BILLING_OPENAI_URL: provider.url } });
    const body = { provider: 'openai', token: TOKEN, from: '2026-01-01', to: '2026-01-02' };
    const res = await api().post('/sync', body);
    while (provider.calls() === 0) await sleep(10);
    await svc.app.close();
    const row = await sql<{
      status: string;
    }>`select status from billing.sync_jobs where id = ${res.body.data.id}`.execute(tables());
    expect(row.rows).toEqual([{ status: 'completed' }]);
  });
});
