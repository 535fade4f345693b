import { setTimeout as sleep } from 'node:timers/promises';
import {
  MEMORY,
  migrateSchema,
  openDatabase,
  sql,
  type Kysely,
  type PlatformDatabase,
} from '@platform/db';
import {
  findJob,
  INTERRUPTED,
  JobFailure,
  JobQueue,
  newId,
  runPeriodically,
  type Job,
  type JobQueueOptions,
} from '../src/index';
import { insertJob, type JobsDb } from '../src/jobs/repository';

// The durable jobs on PGlite, or on PostgreSQL when DATABASE_URL is set, each test in a schema of
// its own. Two handles on the database stand for two instances of a service: two pools on
// PostgreSQL; on PGlite, one connection by nature, the same instance twice.

const quiet = { debug: () => undefined, info: () => undefined, error: () => undefined };
const fast: JobQueueOptions = { pollMs: 20, leaseMs: 600, drainMs: 2_000 };

let shared: PlatformDatabase[];
beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  shared = url
    ? await Promise.all([1, 2].map(() => openDatabase({ url, poolSize: 5 })))
    : [await openDatabase({ dataDir: MEMORY })];
});
afterAll(() => Promise.all(shared.map((db) => db.close())));

let schema: string;
let dbs: [PlatformDatabase, PlatformDatabase];
let queues: JobQueue[];
beforeEach(async () => {
  schema = `jobs_test_${newId(8).toLowerCase()}`;
  dbs = [shared[0], shared[1] ?? shared[0]];
  await migrateSchema(dbs[0], schema, {});
  queues = [];
});
afterEach(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await sql`drop schema ${sql.id(schema)} cascade`.execute(dbs[0].kysely);
});

/** A queue of the test's schema on the first or second handle (one instance each). */
function queue(handle: 0 | 1 = 0, options: JobQueueOptions = {}) {
  const q = new JobQueue(dbs[handle].schema(schema), quiet, { ...fast, ...options });
  queues.push(q);
  return q;
}
const tables = () => dbs[0].schema(schema) as unknown as JobsDb;
const job = async (id: string) => (await findJob(tables(), id)) as Job;
async function settled(id: string) {
  for (;;) {
    const row = await job(id);
    if (row.status === 'completed' || row.status === 'failed') return row;
    await sleep(10);
  }
}

describe('durable jobs', () => {
  it('runs queued jobs and completes them with their result, calling onComplete in the same transaction', async () => {
    const q = queue();
    const completed: string[] = [];
    const square = q.define<{ n: number }, number>({
      kind: 'square',
      handler: async ({ n }) => n * n,
      onComplete: async (db: Kysely<unknown>, done) => {
        // The job is already completed inside the transaction that completes it.
        expect((await findJob(db as unknown as JobsDb, done.id))?.status).toBe('completed');
        completed.push(done.id);
      },
    });
    await q.startPolling();
    const jobs = await Promise.all([2, 3].map((n) => square.enqueue({ n })));
    expect(jobs[0]).toMatchObject({ kind: 'square', status: 'queued', payload: { n: 2 } });
    const done = await Promise.all(jobs.map((j) => settled(j.id)));
    expect(done.map((j) => [j.status, j.result, j.attempts])).toEqual([
      ['completed', 4, 1],
      ['completed', 9, 1],
    ]);
    expect(done.every((j) => j.locked_by === null && j.lease_until === null)).toBe(true);
    expect(completed.sort()).toEqual(jobs.map((j) => j.id).sort());
  });

  it('retries a throwing handler with backoff, then fails it and calls onFail once', async () => {
    const q = queue();
    const runs: number[] = [];
    const failures: string[] = [];
    const flaky = q.define({
      kind: 'flaky',
      maxAttempts: 3,
      backoffMs: (attempts) => 100 * attempts,
      handler: async () => {
        runs.push(Date.now());
        throw new Error(`upstream down (${runs.length})`);
      },
      onFail: async (_db, _job, error) => void failures.push(error),
    });
    const fatal = q.define({
      kind: 'fatal',
      handler: async () => {
        throw new JobFailure('bad input');
      },
    });
    await q.startPolling();
    const [a, b] = [await flaky.enqueue({}), await fatal.enqueue({})];
    expect(await settled(a.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'upstream down (3)',
    });
    expect(failures).toEqual(['upstream down (3)']);
    // The pauses grow: 100 ms after the first failure, 200 ms after the second.
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(90);
    expect(runs[2] - runs[1]).toBeGreaterThanOrEqual(190);
    expect(await settled(b.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'bad input',
    });
  });

  it('takes over a job whose instance died: runs a resumable one again, fails the others', async () => {
    // Rows as a process leaves them when it dies mid-run: running, held by it, lease expired.
    const dead = { instance: 'dead-instance', leaseMs: -1_000 };
    const orphan = (kind: string, resumable: boolean, maxAttempts = 3) =>
      insertJob(tables(), { kind, payload: { kind }, resumable, maxAttempts }, dead);
    const resumed = await orphan('resumable', true);
    const secret = await orphan('resumable', false);
    const exhausted = await orphan('resumable', true, 1);
    const alive = await insertJob(
      tables(),
      { kind: 'resumable', payload: {}, resumable: true, maxAttempts: 3 },
      { instance: 'live-instance', leaseMs: 60_000 },
    );
    const failed: string[] = [];
    const q = queue(1);
    q.define({
      kind: 'resumable',
      handler: async (payload) => ({ ranBy: q.instance, payload }),
      onFail: async (_db, j, error) => void failed.push(`${j.id}: ${error}`),
    });
    await q.startPolling();
    expect(await settled(resumed.id)).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { ranBy: q.instance },
    });
    for (const id of [secret.id, exhausted.id])
      expect(await settled(id)).toMatchObject({ status: 'failed', last_error: INTERRUPTED });
    expect(failed.sort()).toEqual(
      [secret.id, exhausted.id].sort().map((id) => `${id}: ${INTERRUPTED}`),
    );
    // A job whose lease is still running belongs to its (live) instance.
    expect(await job(alive.id)).toMatchObject({ status: 'running', locked_by: 'live-instance' });
  });

  it('never runs a job twice when several instances poll one database', async () => {
    const runs = new Map<string, string[]>();
    // Four instances, two on each handle (pool), claiming small batches as fast as they can.
    for (const handle of [0, 1, 0, 1] as const) {
      // A lease long enough that no run is taken over here: this is about claiming, not expiry.
      const q = queue(handle, { concurrency: 2, pollMs: 1, leaseMs: 60_000 });
      q.define<{ i: number }>({
        kind: 'count',
        handler: async (_payload, { job: j }) => {
          runs.set(j.id, [...(runs.get(j.id) ?? []), q.instance]);
          await sleep(1);
        },
      });
    }
    const producer = new JobQueue(dbs[0].schema(schema), quiet).define<{ i: number }>({
      kind: 'count',
      handler: async () => undefined,
    });
    const jobs = await Promise.all(Array.from({ length: 200 }, (_, i) => producer.enqueue({ i })));
    await Promise.all(queues.map((q) => q.startPolling()));
    // One at a time: 200 polls at once queued for the test pool's connections (a timeout on a busy
    // machine), not for the job.
    for (const j of jobs) await settled(j.id);
    expect(runs.size).toBe(200);
    expect([...runs.values()].filter((by) => by.length > 1)).toEqual([]);
    // Every instance took part.
    const byInstance = new Set([...runs.values()].map(([by]) => by));
    expect(byInstance.size).toBe(4);
  });

  it('runs a periodic job once per interval across two instances, and keeps its schedule across a restart', async () => {
    const starts: number[] = [];
    let running = 0;
    let overlapped = false;
    const task = async () => {
      starts.push(Date.now());
      overlapped ||= running > 0;
      running += 1;
      await sleep(30);
      running -= 1;
    };
    for (const handle of [0, 1] as const)
      runPeriodically(queue(handle), { name: 'tick', intervalMs: 250, task });
    await Promise.all(queues.map((q) => q.startPolling()));
    await sleep(1_400);
    await Promise.all(queues.splice(0).map((q) => q.stop()));
    // About one run every 280 ms (250 ms pause + 30 ms run): 5 or 6, not twice that.
    expect(starts.length).toBeGreaterThanOrEqual(3);
    expect(starts.length).toBeLessThanOrEqual(7);
    expect(overlapped).toBe(false);
    const row = await tables().selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'periodic:tick', key: 'periodic:tick', status: 'queued' });

    // Restarted with a long interval: the stored next run (within 250 ms) stands.
    const before = starts.length;
    const restarted = queue(0);
    runPeriodically(restarted, { name: 'tick', intervalMs: 60_000, task });
    runPeriodically(restarted, { name: 'off', intervalMs: 0, task });
    await restarted.startPolling();
    await sleep(600);
    expect(starts.length).toBe(before + 1);
    const rows = await tables().selectFrom('jobs').select(['key', 'run_at']).execute();
    expect(rows.map((r) => r.key)).toEqual(['periodic:tick']);
    expect(rows[0].run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('on close, waits for a running handler, and leaves one that outlasts drainMs to lease expiry', async () => {
    const q = queue(0, { drainMs: 300, leaseMs: 400 });
    let release: () => void = () => undefined;
    const slow = q.define<{ ms: number }>({
      kind: 'slow',
      handler: ({ ms }) =>
        ms > 0
          ? sleep(ms).then(() => 'slept')
          : new Promise<void>((resolve) => (release = resolve)),
    });
    const quick = await slow.start({ ms: 150 });
    const hung = await slow.start({ ms: 0 });
    const began = Date.now();
    await q.stop();
    const waited = Date.now() - began;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(1_500);
    expect(await job(quick.job.id)).toMatchObject({ status: 'completed', result: 'slept' });
    expect(await job(hung.job.id)).toMatchObject({ status: 'running', locked_by: q.instance });
    release();

    // Another instance takes it over once the lease (no longer renewed) has expired.
    const next = queue(1);
    next.define({ kind: 'slow', handler: async () => 'resumed' });
    await next.startPolling();
    expect(await settled(hung.job.id)).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: 'resumed',
    });
  });

  it('start runs a job here at once with transient data that is never stored, and no other run', async () => {
    const q = queue(0);
    const seen: Array<string | undefined> = [];
    const withToken = q.define<object, string, { token: string }>({
      kind: 'token',
      handler: async (_p, { transient }) => {
        seen.push(transient?.token);
        return 'ok';
      },
    });
    const { job: started, record } = await withToken.start(
      {},
      { transient: { token: 't0k' }, record: async () => 'recorded' },
    );
    expect(record).toBe('recorded');
    expect(await settled(started.id)).toMatchObject({ status: 'completed', resumable: false });
    expect(seen).toEqual(['t0k']);
    expect(JSON.stringify(await job(started.id))).not.toContain('t0k');
  });

  it('start with mayQueue runs at most `concurrency` jobs at once, queuing the rest for the poller', async () => {
    const q = queue(0, { concurrency: 2 });
    let running = 0;
    let most = 0;
    const sends = q.define<{ n: number }, number>({
      kind: 'send',
      handler: async ({ n }) => {
        most = Math.max(most, ++running);
        await sleep(60);
        running -= 1;
        return n;
      },
    });
    await q.startPolling();
    const started = await Promise.all(
      Array.from({ length: 8 }, (_, n) => sends.start({ n }, { mayQueue: true })),
    );
    expect(started.filter((s) => s.job.status === 'queued')).toHaveLength(6);
    for (const { job: j } of started)
      expect(await settled(j.id)).toMatchObject({ status: 'completed' });
    expect(most).toBe(2);
  });
});
