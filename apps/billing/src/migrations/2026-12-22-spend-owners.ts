import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Spend owned by teams (issue 39): an item resolves to a catalog service (null: unmatched), whose
// system id and owner name it keeps; billing's copy of the catalog (services with their system and
// owner) and when it was last fetched; the rules that map items to catalog services, and the
// allocation rules that split shared costs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('items')
    .addColumn('catalog_service', 'text')
    .addColumn('catalog_system', 'text')
    .addColumn('catalog_owner', 'text')
    .execute();
  for (const column of ['catalog_service', 'catalog_owner'])
    await db.schema
      .createIndex(`items_${column}_idx`)
      .on('items')
      .columns([column, 'date'])
      .execute();
  // What a rule on a raw service (or ServiceName) and a change of the catalog re-resolve.
  await db.schema
    .createIndex('items_service_lower_idx')
    .on('items')
    .expression(sql`lower(service)`)
    .execute();

  // The last snapshot of the catalog's services that billing fetched (kept when the catalog is off).
  await db.schema
    .createTable('catalog_services')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('system', 'text')
    .addColumn('system_name', 'text')
    .addColumn('owner', 'text')
    .execute();
  // Items resolve by a service's id (exact, then any case) or name (any case).
  for (const column of ['id', 'name'])
    await db.schema
      .createIndex(`catalog_services_${column}_lower_idx`)
      .on('catalog_services')
      .expression(sql`lower(${sql.ref(column)})`)
      .execute();
  // One row: when the snapshot was last fetched, the last attempt and its error.
  await db.schema
    .createTable('catalog_snapshot')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('fetched_at', 'timestamptz')
    .addColumn('attempted_at', 'timestamptz')
    .addColumn('error', 'text')
    .addColumn('services', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Owner rules: items matching every condition given resolve to `target`; lowest priority first.
  await db.schema
    .createTable('owner_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('provider', 'text')
    .addColumn('service', 'text')
    .addColumn('focus_column', 'text')
    .addColumn('focus_value', 'text')
    .addColumn('tag_key', 'text')
    .addColumn('tag_value', 'text')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_by', 'text')
    .addColumn('team', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('owner_rules_priority_idx')
    .on('owner_rules')
    .columns(['priority', 'id'])
    .execute();

  // Allocation rules: the items a selector takes are split by fixed shares or in proportion to
  // the spend of each catalog service among the items of another selector, in the same period.
  await db.schema
    .createTable('allocation_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('selector', 'jsonb', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('shares', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('basis', 'jsonb')
    .addColumn('description', 'text')
    .addColumn('created_by', 'text')
    .addColumn('team', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('allocation_rules_name_key')
    .on('allocation_rules')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['allocation_rules', 'owner_rules', 'catalog_snapshot', 'catalog_services'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('items_service_lower_idx').execute();
  await db.schema
    .alterTable('items')
    .dropColumn('catalog_service')
    .dropColumn('catalog_system')
    .dropColumn('catalog_owner')
    .execute();
}
