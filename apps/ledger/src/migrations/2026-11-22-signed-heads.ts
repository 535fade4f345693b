import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The chain head as the ledger's key signed it: the statement JCS({ v, seq, hash, signedAt,
  // keyId }) and its Ed25519 signature. Only the key's id is stored, never the key.
  await db.schema
    .createTable('signed_heads')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('signed_heads_pkey', ['key_id', 'seq'])
    .execute();
  // Verify reads them in chain order; the list newest first.
  await db.schema.createIndex('signed_heads_seq_idx').on('signed_heads').column('seq').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signed_heads').execute();
}
