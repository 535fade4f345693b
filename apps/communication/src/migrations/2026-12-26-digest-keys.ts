import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Idempotency-Key of digested sends (issue 41): the key, per app, of a send that joined a digest,
// kept after the digest is flushed (as a delivery keeps its key), so a repeat joins nothing twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('digest_keys')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('digest_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('flush_at', 'timestamptz', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('digest_keys_pkey', ['app_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('digest_keys').execute();
}
