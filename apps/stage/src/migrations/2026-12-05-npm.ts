import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// npm packages (issue 32): each tarball a render used, verified against its integrity, once for
// every session and instance (a second render, or another instance, fetches nothing).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('npm_packages')
    // The Subresource Integrity the tarball was checked against (sha512-<base64>).
    .addColumn('integrity', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('tarball', 'bytea', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('unpacked_size', 'integer', (c) => c.notNull())
    .addColumn('files', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('npm_packages_name_version')
    .on('npm_packages')
    .columns(['name', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('npm_packages').execute();
}
