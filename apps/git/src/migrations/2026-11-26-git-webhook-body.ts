import type { Kysely } from '@platform/db';

// Frozen once shipped. Deliveries are also unique by the SHA-256 of their raw body: the delivery
// id is not covered by the signature, so a replay under a new id is still the same delivery.
// Events stored before this migration have no hash (null, never equal to another).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_events').addColumn('body_sha256', 'text').execute();
  await db.schema
    .createIndex('webhook_events_body_sha256_key')
    .on('webhook_events')
    .unique()
    .column('body_sha256')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_events_body_sha256_key').ifExists().execute();
  await db.schema.alterTable('webhook_events').dropColumn('body_sha256').execute();
}
