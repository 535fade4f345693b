import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// What app backends do besides answering (issue 32, item 5): their console lines, their secrets
// (ciphertext), their schedules (from config.schedules, with the next run of each) and the runs
// of those. All go with their app.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backend_logs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('logged_at', 'timestamptz', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('schedule', 'text')
    .execute();
  await db.schema
    .createIndex('backend_logs_app')
    .on('backend_logs')
    .columns(['app_sid', 'id desc'])
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('app_secrets_pkey', ['app_sid', 'name'])
    .execute();

  await db.schema
    .createTable('app_schedules')
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('next_run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('app_schedules_pkey', ['app_sid', 'name'])
    .execute();
  await db.schema
    .createIndex('app_schedules_due')
    .on('app_schedules')
    .column('next_run_at')
    .execute();

  await db.schema
    .createTable('app_schedule_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('request_id', 'text')
    .addColumn('workflow_run_id', 'text')
    .execute();
  // One run per tick of a schedule, whichever instance saw it due first.
  await db.schema
    .createIndex('app_schedule_runs_tick')
    .on('app_schedule_runs')
    .unique()
    .columns(['app_sid', 'schedule', 'scheduled_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_schedule_runs').execute();
  await db.schema.dropTable('app_schedules').execute();
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('backend_logs').execute();
}
