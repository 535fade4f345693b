import { sql, type Kysely } from '@platform/db';

const stamps = (table: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
  table
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`));

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await stamps(
    db.schema
      .createTable('providers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('passport_provider_id', 'text')
      .addColumn('base_url', 'text'),
  ).execute();
  await db.schema
    .createIndex('providers_name_key')
    .on('providers')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await stamps(
    db.schema
      .createTable('repositories')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull().references('providers.id'))
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('repo_name', 'text', (c) => c.notNull())
      .addColumn('html_url', 'text')
      .addColumn('default_branch', 'text', (c) => c.notNull())
      .addColumn('connected_by', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('private', 'boolean', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('repositories_name_key')
    .on('repositories')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createIndex('repositories_provider_idx')
    .on('repositories')
    .column('provider_id')
    .execute();

  await stamps(
    db.schema
      .createTable('pulls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('repository_id', 'text', (c) =>
        c.notNull().references('repositories.id').onDelete('cascade'),
      )
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text')
      .addColumn('head', 'text', (c) => c.notNull())
      .addColumn('base', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('merged', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('merge_commit_sha', 'text')
      .addColumn('merged_at', 'timestamptz')
      .addColumn('author', 'text', (c) => c.notNull())
      .addUniqueConstraint('pulls_repository_number_key', ['repository_id', 'number']),
  ).execute();

  await stamps(
    db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('repository_id', 'text', (c) =>
        c.notNull().references('repositories.id').onDelete('cascade'),
      )
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('provider_hook_id', 'text')
      .addColumn('secret', 'text')
      .addColumn('events', sql`text[]`, (c) => c.notNull())
      .addUniqueConstraint('webhooks_repository_url_key', ['repository_id', 'url']),
  ).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    // No foreign key: an event outlives the repository it names (and may name none we know).
    .addColumn('repository_id', 'text')
    .addColumn('repository_name', 'text')
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('webhook_events_repository_idx')
    .on('webhook_events')
    .columns(['repository_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_events', 'webhooks', 'pulls', 'repositories', 'providers'])
    await db.schema.dropTable(table).ifExists().execute();
}
