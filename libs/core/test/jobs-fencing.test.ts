import { setTimeout as sleep } from 'node:timers/promises';
import { MEMORY, migrateSchema, openDatabase, sql, type PlatformDatabase } from '@platform/db';
import { findJob, JobQueue, type Job } from '../src/index';
import type { JobsDb } from '../src/jobs/repository';

// A run whose lease expired while it was still going (its renewals failed, as in a database
// outage longer than the lease): its own instance never claims it a second time, and once another
// instance has claimed it, the first run's outcome is not written over the second's.

const quiet = { debug: () => undefined, info: () => undefined, error: () => undefined };

let db: PlatformDatabase;
const queues: JobQueue[] = [];
beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  db = url ? await openDatabase({ url, poolSize: 5 }) : await openDatabase({ dataDir: MEMORY });
  await sql`drop schema if exists fencing cascade`.execute(db.kysely);
  await migrateSchema(db, 'fencing', {});
});
afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await sql`drop schema fencing cascade`.execute(db.kysely);
  await db.close();
});

const tables = () => db.schema('fencing') as unknown as JobsDb;
const job = async (id: string) => (await findJob(tables(), id)) as Job;
const expireLease = (id: string) =>
  tables()
    .updateTable('jobs')
    .set({ lease_until: sql<Date>`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();

/** An instance whose runs wait until released; each run is recorded with its instance. */
function instance(name: string, runs: string[]) {
  const releases: Array<() => void> = [];
  const q = new JobQueue(db.schema('fencing'), quiet, {
    instance: name,
    pollMs: 20,
    leaseMs: 60_000,
  });
  queues.push(q);
  const kind = q.define<{ n: number }>({
    kind: 'work',
    handler: () => {
      runs.push(name);
      return new Promise<string>((resolve) => releases.push(() => resolve(`done by ${name}`)));
    },
  });
  return { q, kind, release: () => releases.shift()?.() };
}

it('never claims its own run again, and a run taken over elsewhere writes nothing', async () => {
  const runs: string[] = [];
  const first = instance('first', runs);
  await first.q.startPolling();
  const { job: started } = await first.kind.start({ n: 1 });
  await sleep(50);

  // Its lease lapses while the run goes on: the same instance polls but does not run it again.
  await expireLease(started.id);
  await sleep(200);
  expect(runs).toEqual(['first']);

  // Another instance takes it over (attempt 2) and finishes; then the first run ends too late.
  const second = instance('second', runs);
  await second.q.startPolling();
  for (let i = 0; runs.length < 2 && i < 200; i++) await sleep(20);
  expect(runs).toEqual(['first', 'second']);
  second.release();
  for (let i = 0; (await job(started.id)).status === 'running' && i < 200; i++) await sleep(20);
  first.release();
  await sleep(200);
  expect(await job(started.id)).toMatchObject({
    status: 'completed',
    attempts: 2,
    result: 'done by second',
  });
});

it('fences a transaction of the handler: a run that lost its job writes nothing, one that holds it writes', async () => {
  await sql`create table fencing.work (who text)`.execute(db.kysely);
  const q = new JobQueue(db.schema('fencing'), quiet, { instance: 'fenced', leaseMs: 60_000 });
  queues.push(q);
  const gates: Array<() => void> = [];
  const outcomes: string[] = [];
  const kind = q.define<{ name: string }>({
    kind: 'fenced',
    handler: async ({ name }, { fence, signal }) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      try {
        await db
          .schema('fencing')
          .transaction()
          .execute(async (trx) => {
            await fence(trx);
            await sql`insert into fencing.work values (${name})`.execute(trx);
          });
        outcomes.push(`${name} wrote`);
      } catch (error) {
        outcomes.push(`${name}: ${(error as Error).message}; aborted ${signal.aborted}`);
      }
    },
  });
  const { job: kept } = await kind.start({ name: 'kept' });
  const { job: lost } = await kind.start({ name: 'lost' });
  // Another instance claims the second job (attempt 2) while its first run still waits.
  await tables()
    .updateTable('jobs')
    .set({ attempts: 2, locked_by: 'other' })
    .where('id', '=', lost.id)
    .execute();
  for (let i = 0; gates.length < 2 && i < 100; i++) await sleep(10);
  gates.splice(0).forEach((open) => open());
  for (let i = 0; outcomes.length < 2 && i < 200; i++) await sleep(10);
  expect(outcomes.sort()).toEqual([
    'kept wrote',
    `lost: Job ${lost.id} was taken over by another run; this one writes nothing; aborted true`,
  ]);
  const written = await sql<{ who: string }>`select who from fencing.work`.execute(db.kysely);
  expect(written.rows).toEqual([{ who: 'kept' }]);
  // The run that lost the job wrote nothing on it either; the other's claim stands.
  expect(await job(lost.id)).toMatchObject({ status: 'running', attempts: 2, locked_by: 'other' });
  for (let i = 0; (await job(kept.id)).status === 'running' && i < 100; i++) await sleep(10);
  expect(await job(kept.id)).toMatchObject({ status: 'completed', attempts: 1 });
});
