import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 36: branch protection and reviews of local repositories, and catalog discovery (the
// file's path, the last error found in it, the entities it made).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('branch_protections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repository_id', 'text', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('require_pull_request', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('required_approvals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('branch_protections_repository_branch_key', ['repository_id', 'branch'])
    .execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('repository_id', 'text', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('pull_number', 'integer', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('reviews_pull_idx')
    .on('reviews')
    .columns(['repository_id', 'pull_number', 'created_at'])
    .execute();

  await db.schema
    .alterTable('repositories')
    .addColumn('catalog_path', 'text')
    .addColumn('catalog_error', 'text')
    .addColumn('catalog_checked_at', 'timestamptz')
    .addColumn('catalog_entities', 'jsonb')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('repositories')
    .dropColumn('catalog_path')
    .dropColumn('catalog_error')
    .dropColumn('catalog_checked_at')
    .dropColumn('catalog_entities')
    .execute();
  for (const table of ['reviews', 'branch_protections'])
    await db.schema.dropTable(table).ifExists().execute();
}
