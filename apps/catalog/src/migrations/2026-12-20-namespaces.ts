import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Backstage namespaces (issue 37): every named record is in a namespace (`default` for all rows
// made before), and a name is unique within its namespace and collection, in any case. Groups keep
// Backstage's `spec.type` and profile picture; users and groups are members of groups (Backstage's
// memberOf / hasMember, one relation whichever side names it: catalog data, not access, which stays
// with `members`). Domains are a collection of their own, systems belong to one; Templates
// (the scaffolder's kind) are stored whole as descriptors; services remember whether they were a
// Component or a Resource.
const NAMED = ['services', 'systems', 'owners', 'apis'];
const OLD_KEYS: Record<string, string> = {
  services: 'services_name_key',
  systems: 'systems_name_key',
  owners: 'owners_name_key',
  apis: 'apis_name_key',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of NAMED) {
    await db.schema
      .alterTable(table)
      .addColumn('namespace', 'text', (c) => c.notNull().defaultTo('default'))
      .execute();
    await db.schema.dropIndex(OLD_KEYS[table]).execute();
    await db.schema
      .createIndex(`${table}_namespace_name_key`)
      .on(table)
      .unique()
      .expression(sql`lower(namespace), lower(name)`)
      .execute();
  }
  await db.schema
    .alterTable('services')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('component'))
    .execute();
  await sql`alter table catalog.services add constraint services_kind
    check (kind in ('component', 'resource'))`.execute(db);
  await db.schema
    .alterTable('owners')
    .addColumn('type', 'text')
    .addColumn('picture', 'text')
    .addColumn('description', 'text')
    .execute();
  await db.schema
    .createTable('memberships')
    .addColumn('group_id', 'text', (c) => c.notNull().references('owners.id').onDelete('cascade'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('owners.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('memberships_pkey', ['group_id', 'member_id'])
    .addCheckConstraint('memberships_not_self', sql`group_id <> member_id`)
    .execute();
  await db.schema
    .createIndex('memberships_member_idx')
    .on('memberships')
    .columns(['member_id', 'group_id'])
    .execute();

  const named = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('namespace', 'text', (c) => c.notNull().defaultTo('default'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('description', 'text')
      .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('owner_id', 'text', (c) => c.references('owners.id').onDelete('restrict'))
      .addColumn('created_by', 'text')
      .addColumn('team', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`));
  await named('domains')
    .addColumn('type', 'text')
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await named('templates')
    .addColumn('type', 'text')
    .addColumn('descriptor', 'jsonb', (c) => c.notNull())
    .execute();
  for (const table of ['domains', 'templates']) {
    await db.schema
      .createIndex(`${table}_namespace_name_key`)
      .on(table)
      .unique()
      .expression(sql`lower(namespace), lower(name)`)
      .execute();
    await db.schema.createIndex(`${table}_owner_idx`).on(table).column('owner_id').execute();
  }
  await db.schema
    .alterTable('systems')
    .addColumn('domain_id', 'text', (c) => c.references('domains.id').onDelete('restrict'))
    .execute();
  await db.schema.createIndex('systems_domain_idx').on('systems').column('domain_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('systems').dropColumn('domain_id').execute();
  await db.schema.dropTable('templates').execute();
  await db.schema.dropTable('domains').execute();
  await db.schema.dropTable('memberships').execute();
  await db.schema
    .alterTable('owners')
    .dropColumn('type')
    .dropColumn('picture')
    .dropColumn('description')
    .execute();
  await db.schema.alterTable('services').dropColumn('kind').execute();
  for (const table of NAMED) {
    await db.schema.dropIndex(`${table}_namespace_name_key`).execute();
    await db.schema.alterTable(table).dropColumn('namespace').execute();
    await db.schema
      .createIndex(OLD_KEYS[table])
      .on(table)
      .unique()
      .expression(sql`lower(name)`)
      .execute();
  }
}
