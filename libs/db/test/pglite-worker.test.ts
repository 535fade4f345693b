import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  fromPGliteWorker,
  isDatabaseUnavailable,
  MEMORY,
  openDatabase,
  PGliteWorker,
  sql,
  type PlatformDatabase,
} from '../src/index';

// PGlite in a worker thread (openDatabase without a url): what the thread adds to the contract of
// sessions.test.ts. The event loop stays free during a long statement; a worker that dies fails
// the queries under way and every later one, as "database unavailable"; closing ends the thread;
// a data directory persists.

const exited = (remote: PGliteWorker) =>
  new Promise<number>((resolve) => remote.worker.once('exit', resolve));

let remote: PGliteWorker;
let db: PlatformDatabase;
beforeAll(async () => {
  remote = new PGliteWorker(MEMORY);
  await remote.waitReady;
  db = fromPGliteWorker(remote);
}, 60_000);
afterAll(() => db.close());

test('the event loop stays free while the database works', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = Date.now();
  await sql`select count(*) from generate_series(1, 3000000)`.execute(db.kysely);
  const took = Date.now() - started;
  clearInterval(timer);
  // In this thread, the statement would leave no turn to the timer until it ends.
  expect(took).toBeGreaterThan(100);
  expect(ticks).toBeGreaterThan(Math.min(10, took / 5 / 4));
});

test('LISTEN waits for a transaction under way instead of landing inside it', async () => {
  let listening = false;
  const got: Array<string | undefined> = [];
  let stop: (() => Promise<void>) | undefined;
  await db.kysely
    .transaction()
    .execute(async (trx) => {
      await sql`select 1`.execute(trx);
      void db
        .listen('waits', (payload) => got.push(payload))
        .then((s) => {
          listening = true;
          stop = s;
        });
      await sleep(50);
      expect(listening).toBe(false);
      throw new Error('roll back');
    })
    .catch((error: Error) => expect(error.message).toBe('roll back'));
  for (let i = 0; i < 100 && !listening; i++) await sleep(10);
  expect(listening).toBe(true);
  // The rollback did not undo the LISTEN.
  await sql`select pg_notify('waits', 'heard')`.execute(db.kysely);
  for (let i = 0; i < 100 && got.length === 0; i++) await sleep(10);
  expect(got).toEqual(['heard']);
  await stop!();
});

test('a worker that dies fails the queries under way and every later one', async () => {
  const doomed = new PGliteWorker(MEMORY);
  await doomed.waitReady;
  const dying = fromPGliteWorker(doomed);
  const underWay = sql`select pg_sleep(5)`.execute(dying.kysely).catch((error: unknown) => error);
  await sleep(100);
  await doomed.worker.terminate();
  const error = await underWay;
  expect(error).toMatchObject({
    code: '57P02',
    message: expect.stringContaining('The embedded database (PGlite worker thread) stopped'),
  });
  expect(isDatabaseUnavailable(error)).toBe(true);
  await expect(sql`select 1`.execute(dying.kysely)).rejects.toMatchObject({ code: '57P02' });
  await expect(dying.ping()).rejects.toMatchObject({ code: '57P02' });
  await dying.close();
}, 60_000);

test('a data directory persists across a close, which ends the thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-worker-'));
  try {
    const first = await openDatabase({ dataDir: dir });
    await sql`create table kept (id int8 primary key, at timestamptz not null)`.execute(
      first.kysely,
    );
    await sql`insert into kept values (42, '2026-01-02T03:04:05Z')`.execute(first.kysely);
    await first.close();
    await first.close();
    await expect(sql`select 1`.execute(first.kysely)).rejects.toThrow();

    const second = await openDatabase({ dataDir: dir });
    const { rows } = await sql`select * from kept`.execute(second.kysely);
    expect(rows).toEqual([{ id: 42, at: new Date('2026-01-02T03:04:05Z') }]);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);

test('closing waits for the query under way, then stops the thread', async () => {
  const own = new PGliteWorker(MEMORY);
  await own.waitReady;
  const closing = fromPGliteWorker(own);
  const stopped = exited(own);
  const query = sql<{ n: number }>`select 1::int8 as n from pg_sleep(0.3)`.execute(closing.kysely);
  await sleep(50);
  await closing.close();
  expect((await query).rows).toEqual([{ n: 1 }]);
  expect(typeof (await stopped)).toBe('number'); // the thread is gone
  expect(own.closed).toBe(true);
  await expect(own.query('select 1')).rejects.toThrow('PGlite is closed');
}, 60_000);

test('a wrapper that does not own the worker leaves it running', async () => {
  const borrowed = fromPGliteWorker(remote, { owned: false });
  await sql`select 1`.execute(borrowed.kysely);
  await borrowed.close();
  expect(remote.closed).toBe(false);
  await expect(sql`select 2 as two`.execute(db.kysely)).resolves.toMatchObject({
    rows: [{ two: 2 }],
  });
});
