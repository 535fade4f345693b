import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Durable workflow runs (issue 40): a run keeps the definition it started with, who ran it and
// the job that holds it; a step is recorded by its path in the definition (steps[2].then[0]),
// with its status and attempts, before the next one starts. Webhook secrets (sealed), schedule
// ticks claimed once across instances, and the cursor of the platform events read.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('workflow_runs')
    .addColumn('definition', 'text')
    .addColumn('session_id', 'text')
    .addColumn('file_version', 'integer')
    .addColumn('identity', 'jsonb')
    .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('wake_at', 'timestamptz')
    .addColumn('job_id', 'text')
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('workflow_runs_waking')
    .on('workflow_runs')
    .columns(['status', 'wake_at'])
    .where(sql.ref('wake_at'), 'is not', null)
    .execute();

  await db.schema
    .alterTable('workflow_run_steps')
    .addColumn('path', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('completed'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('value', 'jsonb')
    .execute();
  await (db as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped, as migrations are
    .updateTable('workflow_run_steps')
    .set({ path: sql`'steps[' || index || ']'`, started_at: sql`recorded_at` })
    .execute();
  await db.schema
    .alterTable('workflow_run_steps')
    .alterColumn('path', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('workflow_run_steps').dropConstraint('workflow_run_steps_pkey').execute(); // prettier-ignore
  await db.schema
    .alterTable('workflow_run_steps')
    .addPrimaryKeyConstraint('workflow_run_steps_pkey', ['run_id', 'path'])
    .execute();

  await db.schema
    .createTable('workflow_webhooks')
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('workflow', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('workflow_webhooks_pkey', ['app_sid', 'workflow'])
    .execute();

  await db.schema
    .createTable('workflow_ticks')
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    .addColumn('workflow', 'text', (c) => c.notNull())
    .addColumn('trigger', 'integer', (c) => c.notNull())
    .addColumn('tick_at', 'timestamptz', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addPrimaryKeyConstraint('workflow_ticks_pkey', ['app_sid', 'workflow', 'trigger', 'tick_at'])
    .execute();

  await db.schema
    .createTable('workflow_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('cursor', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['workflow_cursors', 'workflow_ticks', 'workflow_webhooks'])
    await db.schema.dropTable(table).execute();
  await (db as Kysely<any>) // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped, as migrations are
    .deleteFrom('workflow_run_steps')
    .where(sql<boolean>`path !~ '^steps\\[[0-9]+\\]$'`)
    .execute();
  await db.schema.alterTable('workflow_run_steps').dropConstraint('workflow_run_steps_pkey').execute(); // prettier-ignore
  await db.schema
    .alterTable('workflow_run_steps')
    .addPrimaryKeyConstraint('workflow_run_steps_pkey', ['run_id', 'index'])
    .execute();
  await db.schema
    .alterTable('workflow_run_steps')
    .dropColumn('path')
    .dropColumn('status')
    .dropColumn('attempts')
    .dropColumn('started_at')
    .dropColumn('value')
    .execute();
  await db.schema.dropIndex('workflow_runs_waking').execute();
  await db.schema
    .alterTable('workflow_runs')
    .dropColumn('definition')
    .dropColumn('session_id')
    .dropColumn('file_version')
    .dropColumn('identity')
    .dropColumn('trigger')
    .dropColumn('wake_at')
    .dropColumn('job_id')
    .dropColumn('retries')
    .execute();
}
