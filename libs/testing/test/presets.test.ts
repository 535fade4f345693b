import { migrateSchema, sql, type PlatformDatabase } from '@platform/db';
import { testDatabase, type DatabasePreset } from '../src/index';
import { run, things, type ThingsDb } from './things';

let db: PlatformDatabase;
beforeEach(async () => {
  db = await testDatabase();
});
afterEach(() => db.close());

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
