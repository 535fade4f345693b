import {
  migrateSchema,
  selectByIdOrName,
  sql,
  type Kysely,
  type Migrations,
  type PlatformDatabase,
} from '@platform/db';
import { sleep, testDatabase, type DatabasePreset } from '../src/index';

const things: Migrations = {
  '001-things': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('things')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('things_name_key')
        .unique()
        .on('things')
        .expression(sql`lower(name)`)
        .execute();
    },
  },
};

/** Statements one at a time (a prepared statement takes one). */
async function run(d: PlatformDatabase, ...statements: string[]) {
  for (const statement of statements) await sql.raw(statement).execute(d.kysely);
}

interface ThingsDb {
  things: { id: string; name: string; n: number };
}

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

describe('a preset database', () => {
  let prepared = 0;
  const preset: DatabasePreset = {
    name: 'testing-things',
    sources: [__filename],
    prepare: async (d) => {
      prepared++;
      await migrateSchema(d, 'alpha', things);
      await d
        .schema<ThingsDb>('alpha')
        .insertInto('things')
        .values({ id: 'seed', name: 'Seed', n: 1 })
        .execute();
      // An identity, a generated column and a trigger: what putting rows back must respect.
      await run(
        d,
        `create table alpha.events (id int generated always as identity primary key,
          name text not null, size int generated always as (length(name)) stored)`,
        'create table alpha.log (name text)',
        `create function alpha.logged() returns trigger language plpgsql
          as $$ begin insert into alpha.log values (new.name); return new; end $$`,
        `create trigger events_logged after insert on alpha.events
          for each row execute function alpha.logged()`,
        `insert into alpha.events (name) values ('first')`,
      );
    },
  };
  /** Which database it is: a PGlite instance (its start), or a database on the server. */
  const started = (d: PlatformDatabase) =>
    sql<{ at: string }>`select pg_postmaster_start_time()::text || current_database() as at`
      .execute(d.kysely)
      .then((r) => r.rows[0].at);
  const onPGlite = !process.env.DATABASE_URL;
  const events = (d: PlatformDatabase) =>
    sql<{ id: number; name: string; size: number }>`select * from alpha.events order by id`
      .execute(d.kysely)
      .then((r) => r.rows);
  const logged = (d: PlatformDatabase) =>
    sql<{ name: string }>`select name from alpha.log`.execute(d.kysely).then((r) => r.rows);
  const seeded = (d: PlatformDatabase) =>
    d.schema<ThingsDb>('alpha').selectFrom('things').select(['id', 'n']).execute();

  it('holds what prepare made, made once and copied for each test', async () => {
    const first = await testDatabase(preset);
    const second = await testDatabase(preset);
    try {
      expect(await seeded(first)).toEqual([{ id: 'seed', n: 1 }]);
      await first.schema<ThingsDb>('alpha').updateTable('things').set({ n: 2 }).execute();
      expect(await seeded(second)).toEqual([{ id: 'seed', n: 1 }]);
      expect(await migrateSchema(second, 'alpha', things)).toEqual([]);
      // Once on this machine: a dump an earlier run made (for this file as it is) is reused.
      expect(prepared).toBeLessThanOrEqual(1);
    } finally {
      await first.close();
      await second.close();
    }
    // An empty database is still empty.
    const after = await testDatabase();
    try {
      expect(await migrateSchema(after, 'alpha', things)).toEqual(['001-things']);
    } finally {
      await after.close();
    }
  });

  it('is put back as the preset made it once released, rows and sequences', async () => {
    const first = await testDatabase(preset);
    const instance = await started(first);
    await first.schema<ThingsDb>('alpha').updateTable('things').set({ n: 2 }).execute();
    await first
      .schema<ThingsDb>('alpha')
      .insertInto('things')
      .values({ id: 'x', name: 'X', n: 0 })
      .execute();
    await run(
      first,
      `insert into alpha.events (name) values ('second'), ('third')`,
      `delete from alpha.events where name = 'first'`,
      'set search_path = alpha',
      'create temporary table scratch (id int)',
    );
    await first.close();

    const again = await testDatabase(preset);
    try {
      // On PGlite the same instance, put back; on PostgreSQL a new copy of the template.
      if (onPGlite) expect(await started(again)).toBe(instance);
      else expect(await started(again)).not.toBe(instance);
      expect(await seeded(again)).toEqual([{ id: 'seed', n: 1 }]);
      expect(await events(again)).toEqual([{ id: 1, name: 'first', size: 5 }]);
      expect(await logged(again)).toEqual([{ name: 'first' }]);
      await sql`insert into alpha.events (name) values ('next')`.execute(again.kysely);
      expect((await events(again)).map((e) => e.id)).toEqual([1, 2]); // the identity too
      const setting = await sql<{
        path: string;
      }>`select current_setting('search_path') as path`.execute(again.kysely);
      expect(setting.rows[0].path).not.toContain('alpha');
      await expect(sql`select * from scratch`.execute(again.kysely)).rejects.toThrow('scratch');
    } finally {
      await again.close();
    }
  });

  it('is closed, not put back, when the test changed its schema', async () => {
    const first = await testDatabase(preset);
    const instance = await started(first);
    await sql`alter table alpha.things add column extra text`.execute(first.kysely);
    await first.close();
    const next = await testDatabase(preset);
    try {
      expect(await started(next)).not.toBe(instance);
      const columns = await sql<{ name: string }>`select column_name as name
        from information_schema.columns where table_schema = 'alpha' and table_name = 'things'`.execute(
        next.kysely,
      );
      expect(columns.rows.map((c) => c.name)).not.toContain('extra');
    } finally {
      await next.close();
    }
  });
});

it('refuses a preset whose prepare fails, with its error, and leaves nothing behind', async () => {
  const failing: DatabasePreset = {
    name: 'testing-failing',
    sources: [__filename],
    prepare: async () => {
      throw new Error('the preset broke');
    },
  };
  await expect(testDatabase(failing)).rejects.toThrow('the preset broke');
  await expect(testDatabase(failing)).rejects.toThrow('the preset broke');
  expect(await migrateSchema(db, 'alpha', things)).toEqual(['001-things']);
});
