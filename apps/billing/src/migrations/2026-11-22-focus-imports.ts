import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// FOCUS imports (issue 12): exact amounts and FinOps dimensions on items, progress on sync jobs,
// and the two tables a large import goes through (the uploaded bytes, then its parsed rows).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('items')
    // The exact amount in cents (decimal), when the source had sub-cent precision.
    .addColumn('exact_amount', 'numeric')
    .addColumn('dimensions', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();

  await db.schema
    .alterTable('sync_jobs')
    .addColumn('rows_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows_written', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();

  // A CSV uploaded as a request body, in order, until its sync job has read it.
  await db.schema
    .createTable('focus_uploads')
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('focus_uploads_pkey', ['upload_id', 'seq'])
    .execute();

  // The rows of a FOCUS sync under way, merged into items when the whole file has been read.
  await db.schema
    .createTable('focus_rows')
    .addColumn('sync_job_id', 'text', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('exact_amount', 'numeric', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'timestamptz', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('service', 'text')
    .addColumn('recurring', 'boolean', (c) => c.notNull())
    .addColumn('period', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull())
    .addColumn('dimensions', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('focus_rows_ref_idx')
    .on('focus_rows')
    .columns(['sync_job_id', 'provider', 'provider_ref', 'row'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('focus_rows').execute();
  await db.schema.dropTable('focus_uploads').execute();
  await db.schema
    .alterTable('sync_jobs')
    .dropColumn('rows_read')
    .dropColumn('rows_written')
    .dropColumn('rows_skipped')
    .dropColumn('skipped')
    .execute();
  await db.schema.alterTable('items').dropColumn('exact_amount').dropColumn('dimensions').execute();
}
