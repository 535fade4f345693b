import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Binary files (issue 32): a content is text (UTF-8 without NUL, what PostgreSQL's text holds) in
// `content`, or bytes in `bytes`, never both. Rows made before this are text and stay as they are;
// their hash (SHA-256 of the UTF-8 bytes) is already the hash of their bytes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('blobs')
    .addColumn('bytes', 'bytea')
    .alterColumn('content', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('blobs')
    .addCheckConstraint('blobs_text_or_bytes', sql`(content is null) <> (bytes is null)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Text cannot hold them: the binary files go, with their versions and snapshot entries.
  const tables = db as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const binary = tables.selectFrom('blobs').select('hash').where('bytes', 'is not', null);
  for (const table of ['snapshot_files', 'file_versions', 'files'])
    await tables.deleteFrom(table).where('hash', 'in', binary).execute();
  await tables.deleteFrom('blobs').where('bytes', 'is not', null).execute();
  await db.schema.alterTable('blobs').dropConstraint('blobs_text_or_bytes').execute();
  await db.schema
    .alterTable('blobs')
    .dropColumn('bytes')
    .alterColumn('content', (c) => c.setNotNull())
    .execute();
}
