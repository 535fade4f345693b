import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// FOCUS uploads parsed as they arrive (issue 12): the uploaded bytes are no longer stored, every
// skipped row is kept, and a re-import replaces the items an earlier FOCUS import made.
interface ItemsOnly {
  items: { provider: string | null; provider_ref: string | null; source: string | null };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('focus_uploads').ifExists().execute();

  await db.schema
    .alterTable('sync_jobs')
    // Items of earlier FOCUS imports in the window that the new file no longer has.
    .addColumn('items_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    // When every row of an uploaded file was staged (the upload answered 202); null before.
    .addColumn('staged_at', 'timestamptz')
    .execute();

  // The adapter whose sync created the item (focus, openai, anthropic); null: made through the API.
  await db.schema.alterTable('items').addColumn('source', 'text').execute();
  // Items synced before this column: FOCUS references are 32 hex digits, the others have colons.
  // Through the query builder, which names the service's schema (raw SQL would not).
  await (db as Kysely<ItemsOnly>)
    .updateTable('items')
    .set({
      source: sql<string>`case when provider in ('openai', 'anthropic') then provider else 'focus' end`,
    })
    .where(sql<boolean>`tags ? 'synced'`)
    .where('provider_ref', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('provider', 'in', ['openai', 'anthropic']),
        eb('provider_ref', '~', '^[0-9a-f]{32}$'),
      ]),
    )
    .execute();
  await db.schema
    .createIndex('items_source_idx')
    .on('items')
    .columns(['source', 'provider', 'date'])
    .where(sql.ref('source'), 'is not', null)
    .execute();

  // Every skipped row of a sync job (sync_jobs.skipped keeps the first ones as a preview).
  await db.schema
    .createTable('focus_skipped')
    .addColumn('sync_job_id', 'text', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('focus_skipped_job_idx')
    .on('focus_skipped')
    .columns(['sync_job_id', 'row'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('focus_skipped').execute();
  await db.schema.dropIndex('items_source_idx').execute();
  await db.schema.alterTable('items').dropColumn('source').execute();
  await db.schema
    .alterTable('sync_jobs')
    .dropColumn('items_deleted')
    .dropColumn('staged_at')
    .execute();
  await db.schema
    .createTable('focus_uploads')
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('focus_uploads_pkey', ['upload_id', 'seq'])
    .execute();
}
