import {
  migrateSchema,
  selectByIdOrName,
  sql,
  type Kysely,
  type Migrations,
  type PlatformDatabase,
} from '@platform/db';
import { sleep, testDatabase } from '../src/index';
import { things, type ThingsDb } from './things';

let db: PlatformDatabase;
beforeEach(async () => {
  db = await testDatabase();
});
afterEach(() => db.close());

describe('migrations', () => {
  // Besides the service's own tables, every schema has the platform's (the durable jobs), tracked
  // in a migration table of their own.
  it("creates each service's tables in its own schema, with its own migration table, once", async () => {
    expect(await migrateSchema(db, 'alpha', things)).toEqual(['001-things']);
    expect(await migrateSchema(db, 'alpha', things)).toEqual([]);
    expect(await migrateSchema(db, 'beta', things)).toEqual(['001-things']);
    const tables = await sql<{ table_schema: string; table_name: string }>`
      select table_schema, table_name from information_schema.tables
      where table_schema in ('alpha', 'beta') order by 1, 2`.execute(db.kysely);
    expect(tables.rows.map((r) => `${r.table_schema}.${r.table_name}`)).toEqual([
      'alpha.jobs',
      'alpha.kysely_migration',
      'alpha.kysely_migration_lock',
      'alpha.platform_migration',
      'alpha.platform_migration_lock',
      'alpha.things',
      'beta.jobs',
      'beta.kysely_migration',
      'beta.kysely_migration_lock',
      'beta.platform_migration',
      'beta.platform_migration_lock',
      'beta.things',
    ]);
  });

  it('reports a failing migration by name and schema', async () => {
    const broken: Migrations = {
      '001-broken': { up: async (k) => void (await sql`select * from nowhere`.execute(k)) },
    };
    await expect(migrateSchema(db, 'gamma', broken)).rejects.toThrow(
      /Migration 001-broken of schema "gamma" failed/,
    );
  });
});

describe('queries', () => {
  let things$: Kysely<ThingsDb>;
  beforeEach(async () => {
    await migrateSchema(db, 'alpha', things);
    things$ = db.schema<ThingsDb>('alpha');
    await things$
      .insertInto('things')
      .values([
        { id: 'Ab12Cd34', name: 'Widget', n: 0 },
        { id: 'widget', name: 'Other', n: 0 },
      ])
      .execute();
  });

  it('resolves an exact id first, then a name case-insensitively (spec 2.1)', async () => {
    const find = (key: string) => selectByIdOrName(things$, 'things', key).then((r) => r?.id);
    expect(await find('Ab12Cd34')).toBe('Ab12Cd34');
    expect(await find('ab12cd34')).toBeUndefined();
    expect(await find('WIDGET')).toBe('Ab12Cd34');
    // "widget" is both an id and a name: the id wins.
    expect(await find('widget')).toBe('widget');
    expect(await find('missing')).toBeUndefined();
  });

  it('returns int8 values as numbers', async () => {
    const { count } = await things$
      .selectFrom('things')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    expect(count).toBe(2);
  });

  it('never interleaves concurrent transactions', async () => {
    // Each transaction reads, waits, and writes back +1: interleaving would lose updates. Kept to
    // 40: on PostgreSQL they queue for 5 connections, and the last must get one within the
    // pool's 5 s bound even on a loaded machine.
    const increment = () =>
      db.kysely.transaction().execute(async (trx) => {
        const t = trx.withSchema('alpha') as unknown as Kysely<ThingsDb>;
        const { n } = await t
          .selectFrom('things')
          .select('n')
          .where('id', '=', 'widget')
          .forUpdate()
          .executeTakeFirstOrThrow();
        await sleep(1);
        await t
          .updateTable('things')
          .set({ n: n + 1 })
          .where('id', '=', 'widget')
          .execute();
      });
    const others = () => things$.selectFrom('things').selectAll().execute();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? increment() : others().then(increment))),
    );
    const { n } = await things$
      .selectFrom('things')
      .select('n')
      .where('id', '=', 'widget')
      .executeTakeFirstOrThrow();
    expect(n).toBe(40);
  });

  it('rolls back a failed transaction and keeps serving', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .withSchema('alpha')
          .insertInto('things')
          .values({ id: 'new', name: 'New' })
          .execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await selectByIdOrName(things$, 'things', 'new')).toBeUndefined();
    expect(await things$.selectFrom('things').select('id').execute()).toHaveLength(2);
  });
});

describe('a database a test released', () => {
  const schemas = (d: PlatformDatabase) =>
    sql<{ name: string }>`select nspname as name from pg_namespace
      where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1`
      .execute(d.kysely)
      .then((r) => r.rows.map((row) => row.name));
  const publicTables = (d: PlatformDatabase) =>
    sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = 'public'`
      .execute(d.kysely)
      .then((r) => r.rows.map((row) => row.name));

  it('is handed out again as new: no schema, table or extension of the last test', async () => {
    await migrateSchema(db, 'alpha', things);
    await sql`create table public.leftover (id int)`.execute(db.kysely);
    await sql`create extension if not exists pg_trgm with schema alpha`.execute(db.kysely);
    await db.close();
    db = await testDatabase();
    expect(await schemas(db)).toEqual(['public']);
    expect(await publicTables(db)).toEqual([]);
    expect(await migrateSchema(db, 'alpha', things)).toEqual(['001-things']);
  });
});
