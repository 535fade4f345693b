import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// What a Backstage catalog carries: service type, lifecycle, links and annotations; APIs as their
// own collection, provided and consumed by services; systems with an owner and tags; owners that
// are groups or users, a group under a parent group.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('services')
    .addColumn('type', 'text')
    .addColumn('lifecycle', 'text')
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('annotations', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .createIndex('services_type_idx')
    .on('services')
    .expression(sql`lower(type)`)
    .execute();

  await db.schema
    .alterTable('owners')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('group'))
    .addColumn('parent_id', 'text', (c) => c.references('owners.id').onDelete('restrict'))
    .execute();
  await db.schema
    .alterTable('owners')
    .addCheckConstraint('owners_kind', sql`kind in ('group', 'user')`)
    .execute();
  await db.schema
    .alterTable('owners')
    .addCheckConstraint('owners_parent_not_self', sql`parent_id <> id`)
    .execute();
  await db.schema.createIndex('owners_parent_idx').on('owners').column('parent_id').execute();

  await db.schema
    .alterTable('systems')
    .addColumn('owner_id', 'text', (c) => c.references('owners.id').onDelete('restrict'))
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema.createIndex('systems_owner_idx').on('systems').column('owner_id').execute();

  await db.schema
    .createTable('apis')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('definition', 'text')
    .addColumn('lifecycle', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('owner_id', 'text', (c) => c.references('owners.id').onDelete('restrict'))
    .addColumn('system_id', 'text', (c) => c.references('systems.id').onDelete('restrict'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Unique among APIs only: a service and its API may share a name, as in Backstage.
  await db.schema
    .createIndex('apis_name_key')
    .on('apis')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema.createIndex('apis_owner_idx').on('apis').column('owner_id').execute();
  await db.schema.createIndex('apis_system_idx').on('apis').column('system_id').execute();

  // A service provides or consumes an API; removing either removes the link.
  await db.schema
    .createTable('service_apis')
    .addColumn('service_id', 'text', (c) =>
      c.notNull().references('services.id').onDelete('cascade'),
    )
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id').onDelete('cascade'))
    // Keeps the order in which they were given.
    .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
    .addPrimaryKeyConstraint('service_apis_pkey', ['service_id', 'relation', 'api_id'])
    .addCheckConstraint('service_apis_relation', sql`relation in ('provides', 'consumes')`)
    .execute();
  // The other way: who provides or consumes an API (graph walks, the API's own record).
  await db.schema
    .createIndex('service_apis_api_idx')
    .on('service_apis')
    .columns(['api_id', 'relation', 'service_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_apis').execute();
  await db.schema.dropTable('apis').execute();
  await db.schema.alterTable('systems').dropColumn('owner_id').dropColumn('tags').execute();
  await db.schema.alterTable('owners').dropColumn('parent_id').dropColumn('kind').execute();
  await db.schema
    .alterTable('services')
    .dropColumn('type')
    .dropColumn('lifecycle')
    .dropColumn('links')
    .dropColumn('annotations')
    .execute();
}
