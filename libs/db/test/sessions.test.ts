import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import {
  fromPGlite,
  isUniqueViolation,
  MEMORY,
  openDatabase,
  sql,
  type PlatformDatabase,
} from '../src/index';

// What callers rely on, the same on each way the platform reaches a database: PGlite in a worker
// thread (openDatabase's default), PGlite in this thread (fromPGlite, the tests' instances) and
// PostgreSQL when DATABASE_URL is set. Each backend gets a schema of its own.

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const backends: Array<[string, () => Promise<PlatformDatabase>]> = [
  ['PGlite in a worker thread', () => openDatabase({ dataDir: MEMORY })],
  ['PGlite in this thread', async () => fromPGlite(await PGlite.create(MEMORY))],
];
if (process.env.DATABASE_URL)
  backends.push(['PostgreSQL', () => openDatabase({ url: process.env.DATABASE_URL, poolSize: 5 })]);

describe.each(backends)('%s', (_name, open) => {
  let db: PlatformDatabase;
  const schema = `sessions_${randomBytes(4).toString('hex')}`;
  const t = (name: string) => sql.table(`${schema}.${name}`);

  beforeAll(async () => {
    db = await open();
    await sql`create schema ${sql.id(schema)}`.execute(db.kysely);
  }, 60_000);
  afterAll(async () => {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(db.kysely);
    await db.close();
  });

  test('a transaction is alone: concurrent queries neither see it nor land inside it', async () => {
    await sql`create table ${t('held')} (id int primary key)`.execute(db.kysely);
    await sql`create table ${t('beside')} (id int primary key)`.execute(db.kysely);
    let seen: Promise<number[]> | undefined;
    let beside: Promise<unknown> | undefined;
    const rolledBack = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into ${t('held')} values (1)`.execute(trx);
      // Started while the transaction is open, from other requests.
      seen = Promise.all(
        range(20).map(async () => {
          const { rows } = await sql<{
            n: number;
          }>`select count(*)::int as n from ${t('held')}`.execute(db.kysely);
          return rows[0].n;
        }),
      );
      beside = Promise.all(
        range(20).map((i) => sql`insert into ${t('beside')} values (${i})`.execute(db.kysely)),
      );
      await sleep(50);
      await sql`insert into ${t('held')} values (2)`.execute(trx);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    // None saw the uncommitted row; none of the inserts was rolled back with the transaction.
    expect(await seen).toEqual(range(20).map(() => 0));
    await beside;
    const count = async (table: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from ${t(table)}`.execute(db.kysely))
        .rows[0].n;
    expect(await count('held')).toBe(0);
    expect(await count('beside')).toBe(20);
  });

  test('concurrent read-modify-write transactions lose no update', async () => {
    await sql`create table ${t('counter')} (id int primary key, n int not null)`.execute(db.kysely);
    await sql`insert into ${t('counter')} values (1, 0)`.execute(db.kysely);
    await Promise.all(
      range(15).map(() =>
        db.kysely.transaction().execute(async (trx) => {
          // `for update` makes it correct on PostgreSQL; on PGlite the single session must.
          const { rows } = await sql<{
            n: number;
          }>`select n from ${t('counter')} where id = 1 for update`.execute(trx);
          await sleep(2);
          await sql`update ${t('counter')} set n = ${rows[0].n + 1} where id = 1`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`select n from ${t('counter')}`.execute(db.kysely);
    expect(rows[0].n).toBe(15);
  });

  test('errors keep their SQLSTATE and fields, and the session goes on', async () => {
    await sql`create table ${t('uniq')} (id int primary key, name text not null)`.execute(
      db.kysely,
    );
    await sql`insert into ${t('uniq')} values (1, 'a')`.execute(db.kysely);
    const duplicate = await sql`insert into ${t('uniq')} values (1, 'b')`
      .execute(db.kysely)
      .catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({
      code: '23505',
      constraint: 'uniq_pkey',
      table: 'uniq',
      schema,
      detail: 'Key (id)=(1) already exists.',
      message: 'duplicate key value violates unique constraint "uniq_pkey"',
    });
    expect(isUniqueViolation(duplicate)).toBe(true);
    await expect(
      sql`insert into ${t('uniq')} (id) values (2)`.execute(db.kysely),
    ).rejects.toMatchObject({ code: '23502', column: 'name' });
    await expect(sql`select * from ${t('missing')}`.execute(db.kysely)).rejects.toMatchObject({
      code: '42P01',
    });
    // A failed transaction rolls back; the next one runs.
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`insert into ${t('uniq')} values (3, 'c')`.execute(trx);
        await sql`insert into ${t('uniq')} values (1, 'd')`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ id: number }>`select id from ${t('uniq')}`.execute(db.kysely);
    expect(rows).toEqual([{ id: 1 }]);
  });

  test('values come back typed: int8 as numbers, timestamps, jsonb, bytea, arrays', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const { rows } = await sql<Record<string, unknown>>`select
        9007199254740991::int8 as big, count(*) as n, ${at}::timestamptz as at,
        ${JSON.stringify({ a: [1, 'x'] })}::jsonb as doc, '\\x0102'::bytea as bytes,
        array['a', 'b'] as list, ${null}::text as nothing`.execute(db.kysely);
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      n: 1,
      at,
      doc: { a: [1, 'x'] },
      bytes: expect.any(Uint8Array),
      list: ['a', 'b'],
      nothing: null,
    });
    expect([...(rows[0].bytes as Uint8Array)]).toEqual([1, 2]);
    const result = await sql`select ${'x'}::text`.execute(db.kysely);
    expect(result.rows).toHaveLength(1);
    await sql`create table ${t('affected')} (id int)`.execute(db.kysely);
    const inserted = await sql`insert into ${t('affected')} select generate_series(1, 3)`.execute(
      db.kysely,
    );
    expect(inserted.numAffectedRows).toBe(3n);
  });

  test('parameters go in as they do on PostgreSQL through pg', async () => {
    const { rows } = await sql<Record<string, unknown>>`select
        ${['a', 'b"c\\d', null]}::text[] as list, ${Buffer.from([0, 255])}::bytea as bytes,
        ${true}::boolean as yes, ${12345678901234n}::int8 as big, ${{ a: [1] }}::jsonb as doc,
        ${5}::int + 1 as n, ${"it's"}::text as s, ${new Date(0)}::timestamptz as epoch,
        ${1.5}::float8 as half`.execute(db.kysely);
    expect({ ...rows[0], bytes: [...(rows[0].bytes as Uint8Array)] }).toEqual({
      list: ['a', 'b"c\\d', null],
      bytes: [0, 255],
      yes: true,
      big: 12345678901234,
      doc: { a: [1] },
      n: 6,
      s: "it's",
      epoch: new Date(0),
      half: 1.5,
    });
  });

  test('LISTEN/NOTIFY: committed notifications arrive, rolled back ones do not', async () => {
    const channel = `ch_${schema}`;
    const got: Array<string | undefined> = [];
    const stop = await db.listen(channel, (payload) => got.push(payload));
    await sql`select pg_notify(${channel}, 'one')`.execute(db.kysely);
    await db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_notify(${channel}, 'lost')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`select pg_notify(${channel}, 'two')`.execute(trx);
    });
    for (let i = 0; i < 100 && got.length < 2; i++) await sleep(20);
    expect(got).toEqual(['one', 'two']);
    await stop();
    await sql`select pg_notify(${channel}, 'after')`.execute(db.kysely);
    await sleep(100);
    expect(got).toEqual(['one', 'two']);
  });
});
