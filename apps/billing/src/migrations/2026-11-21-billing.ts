import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('provider', 'text')
    .addColumn('provider_ref', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('description', 'text')
    .addColumn('recurring', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('period', 'text')
    .addColumn('date', 'timestamptz', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('service', 'text')
    .addColumn('stage_app', 'text')
    .addColumn('author', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('items_provider_ref_key')
    .on('items')
    .columns(['provider', 'provider_ref'])
    .unique()
    .where(sql.ref('provider_ref'), 'is not', null)
    .execute();
  await db.schema.createIndex('items_date_idx').on('items').columns(['currency', 'date']).execute();
  // The list order: newest first.
  await db.schema.createIndex('items_list_idx').on('items').columns(['date desc', 'id']).execute();
  for (const column of ['category', 'provider', 'service'])
    await db.schema
      .createIndex(`items_${column}_idx`)
      .on('items')
      .columns([column, 'date'])
      .execute();
  await db.schema.createIndex('items_tags_idx').on('items').using('gin').column('tags').execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('color', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('categories_name_key')
    .on('categories')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('sync_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('items_created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('items_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('from', 'text')
    .addColumn('to', 'text')
    .addColumn('project_id', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('sync_jobs_provider_idx')
    .on('sync_jobs')
    .columns(['provider', 'started_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sync_jobs', 'categories', 'items'])
    await db.schema.dropTable(table).execute();
}
