import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_sid', 'text')
    .addColumn('google_scopes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_accessed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sessions_app_sid')
    .on('sessions')
    .columns(['app_sid', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sessions_last_accessed_at')
    .on('sessions')
    .column('last_accessed_at')
    .execute();

  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.references('blobs.hash'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('files_pkey', ['session_id', 'path'])
    .execute();

  await db.schema
    .createTable('file_versions')
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    // A content in use cannot be deleted: retention's sweep of unused contents fails instead
    // (and tries again at its next run) when a push takes a content up as it sweeps.
    .addColumn('hash', 'text', (c) => c.references('blobs.hash'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('file_versions_pkey', ['session_id', 'path', 'version'])
    .execute();
  // Finding the blobs nothing refers to any more.
  await db.schema.createIndex('file_versions_hash').on('file_versions').column('hash').execute();

  await db.schema
    .createTable('renders')
    .addColumn('session_id', 'text', (c) =>
      c.primaryKey().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('output_entry', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('error', 'jsonb')
    .addColumn('rendered_at', 'timestamptz')
    .addColumn('root', 'text')
    .addColumn('js', 'text')
    .addColumn('css', 'text')
    .execute();

  await db.schema
    .createTable('snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('snapshots_session')
    .on('snapshots')
    .columns(['session_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('snapshot_files')
    .addColumn('snapshot_id', 'text', (c) =>
      c.notNull().references('snapshots.id').onDelete('cascade'),
    )
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().references('blobs.hash'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshot_files_pkey', ['snapshot_id', 'path'])
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('sid', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // A session serving an app is never reclaimed nor deleted under it.
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id'))
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('repository', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('apps_name_key')
    .on('apps')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  // One app per session: GET /apps?sessionId= names at most one.
  await db.schema
    .createIndex('apps_session_key')
    .on('apps')
    .unique()
    .column('session_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'apps',
    'snapshot_files',
    'snapshots',
    'renders',
    'file_versions',
    'files',
    'blobs',
    'sessions',
  ])
    await db.schema.dropTable(table).execute();
}
