import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { PlatformDatabase } from './database.js';

export type Migrations = Record<string, Migration>;

/**
 * Brings one service's schema to its latest migration. Each service owns a Postgres schema named
 * after it, with its own migration tables inside it, so services migrate independently. The
 * platform's own tables (the durable jobs of @platform/core) are created in the same schema by
 * PLATFORM_MIGRATIONS, tracked in their own migration table (`platform_migration`): the two
 * histories never interleave, so neither ever sees a migration of the other out of order.
 */
export async function migrateSchema(
  db: PlatformDatabase,
  schema: string,
  migrations: Migrations,
): Promise<string[]> {
  if (await upToDate(db, schema, migrations)) return [];
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db.kysely);
  const ran = await migrate(db, schema, migrations, 'kysely_migration');
  await migrate(db, schema, PLATFORM_MIGRATIONS, 'platform_migration');
  return ran;
}

/**
 * Whether both histories already hold exactly the migrations this code knows: one query, where
 * the migrator takes a dozen (its tables, its lock, its transaction) to find out the same. Any
 * other state (a table missing, a migration to run, one this code does not know) goes to the
 * migrator, which runs or refuses as it always does.
 */
async function upToDate(db: PlatformDatabase, schema: string, migrations: Migrations) {
  const same = (names: string[], known: Migrations) =>
    names.length === Object.keys(known).length && names.every((name) => name in known);
  try {
    const { rows } = await sql<{ history: string; name: string }>`
      select 'service' as history, name from ${sql.table(`${schema}.kysely_migration`)}
      union all
      select 'platform', name from ${sql.table(`${schema}.platform_migration`)}`.execute(db.kysely);
    const names = (history: string) => rows.filter((r) => r.history === history).map((r) => r.name);
    return same(names('service'), migrations) && same(names('platform'), PLATFORM_MIGRATIONS);
  } catch {
    return false;
  }
}

async function migrate(
  db: PlatformDatabase,
  schema: string,
  migrations: Migrations,
  table: string,
) {
  const migrator = new Migrator({
    db: db.schema(schema),
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} of schema "${schema}" failed: ${cause}`,
      { cause: error },
    );
  }
  return results.map((r) => r.migrationName);
}

/**
 * Tables every service schema has, whatever the service. Frozen like any migration: never edit
 * one that has shipped; add a new one.
 */
const PLATFORM_MIGRATIONS: Migrations = {
  '2026-11-23-jobs': {
    // The durable jobs of @platform/core (libs/core/src/jobs): work a service accepted and runs
    // later or in the background, which a restart resumes or fails, never forgets.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // The queue: which handler runs it (`sync`, `periodic:retention`).
        .addColumn('kind', 'text', (c) => c.notNull())
        // What the handler is given; never a secret (those stay in the memory of one process).
        .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        // queued (waits for run_at), running (held by locked_by until lease_until), completed,
        // failed. A periodic job goes back to queued after each run.
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
        // Runs started so far, interrupted ones included; no new run once it reaches max_attempts.
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
        // false: a later run could not do the work (it needed something only the first process
        // had, such as a token); an interrupted run fails the job instead of running it again.
        .addColumn('resumable', 'boolean', (c) => c.notNull().defaultTo(true))
        // Not before: the time it was queued for, a retry's backoff, a periodic job's next run.
        .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        // The instance running it, and until when: the running instance renews the lease while
        // the handler works; an expired lease means that instance died, and another takes over.
        .addColumn('locked_by', 'text')
        .addColumn('lease_until', 'timestamptz')
        // The last failed run's message, and the handler's result once completed.
        .addColumn('last_error', 'text')
        .addColumn('result', 'jsonb')
        // A singleton's name (a periodic job's `periodic:<name>`): at most one row per key.
        .addColumn('key', 'text', (c) => c.unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // What the workers look for: queued jobs that are due, running ones whose lease expired.
      await db.schema
        .createIndex('jobs_due_idx')
        .on('jobs')
        .columns(['status', 'run_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('jobs').execute();
    },
  },
};
