import type { Kysely } from '@platform/db';

/** Rate-limit counters shared by every gateway on the database (limits-store.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    // `a:<address>` or `k:<hash of the API key>`.
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    // The end of the key's current window.
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limits_reset_idx')
    .on('rate_limits')
    .column('reset_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
