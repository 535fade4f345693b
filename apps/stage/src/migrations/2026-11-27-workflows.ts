import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workflow_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign key: the record of a run outlives its app.
    .addColumn('app_sid', 'text', (c) => c.notNull())
    .addColumn('workflow', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('result', 'jsonb')
    .addColumn('error_code', 'text')
    .addColumn('error', 'text')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key_scope', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // Insert-first idempotency: of two concurrent runs with one key, one insert wins. Keys are
  // the caller's own: another caller's same key is another run.
  await db.schema
    .createIndex('workflow_runs_idempotency_key')
    .on('workflow_runs')
    .unique()
    .columns(['app_sid', 'key_scope', 'idempotency_key'])
    .where(sql.ref('idempotency_key'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('workflow_runs_app')
    .on('workflow_runs')
    .columns(['app_sid', 'started_at desc', 'id desc'])
    .execute();

  await db.schema
    .createTable('workflow_run_steps')
    .addColumn('run_id', 'text', (c) =>
      c.notNull().references('workflow_runs.id').onDelete('cascade'),
    )
    .addColumn('index', 'integer', (c) => c.notNull())
    .addColumn('block', 'text', (c) => c.notNull())
    .addColumn('as', 'text')
    .addColumn('input', 'jsonb')
    .addColumn('output', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('workflow_run_steps_pkey', ['run_id', 'index'])
    .execute();

  await db.schema
    .createTable('spreadsheets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_sid', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('spreadsheet_sheets')
    .addColumn('spreadsheet_id', 'text', (c) =>
      c.notNull().references('spreadsheets.id').onDelete('cascade'),
    )
    .addColumn('sheet_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('index', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('spreadsheet_sheets_pkey', ['spreadsheet_id', 'sheet_id'])
    .execute();
  // Sheet titles are unique in a spreadsheet in any case, as in Google Sheets.
  await db.schema
    .createIndex('spreadsheet_sheets_title')
    .on('spreadsheet_sheets')
    .unique()
    .expression(sql`spreadsheet_id, lower(title)`)
    .execute();
  await db.schema
    .createTable('spreadsheet_rows')
    .addColumn('spreadsheet_id', 'text', (c) => c.notNull())
    .addColumn('sheet_id', 'integer', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('cells', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('spreadsheet_rows_pkey', ['spreadsheet_id', 'sheet_id', 'row'])
    .addForeignKeyConstraint(
      'spreadsheet_rows_sheet',
      ['spreadsheet_id', 'sheet_id'],
      'spreadsheet_sheets',
      ['spreadsheet_id', 'sheet_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'spreadsheet_rows',
    'spreadsheet_sheets',
    'spreadsheets',
    'workflow_run_steps',
    'workflow_runs',
  ])
    await db.schema.dropTable(table).execute();
}
