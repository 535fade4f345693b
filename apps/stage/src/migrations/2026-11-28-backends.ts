import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backend_kv')
    .addColumn('app_sid', 'text', (c) => c.notNull().references('apps.sid').onDelete('cascade'))
    // Byte order (COLLATE "C"): listing by prefix and paging by key agree on every database.
    .addColumn('key', sql`text collate "C"`, (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('backend_kv_pkey', ['app_sid', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('backend_kv').execute();
}
