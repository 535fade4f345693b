import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  const named = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull());

  await named('systems')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await named('owners')
    .addColumn('email', 'text')
    .addColumn('team', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await named('services')
    .addColumn('description', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('system_id', 'text', (c) => c.references('systems.id').onDelete('restrict'))
    .addColumn('owner_id', 'text', (c) => c.references('owners.id').onDelete('restrict'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  for (const table of ['systems', 'owners', 'services'])
    await db.schema
      .createIndex(`${table}_name_key`)
      .on(table)
      .unique()
      .expression(sql`lower(name)`)
      .execute();
  await db.schema.createIndex('services_system_idx').on('services').column('system_id').execute();
  await db.schema.createIndex('services_owner_idx').on('services').column('owner_id').execute();
  await db.schema
    .createIndex('services_tags_idx')
    .on('services')
    .using('gin')
    .column('tags')
    .execute();

  // An edge: service_id depends on depends_on_id. Removing either service removes the edge.
  await db.schema
    .createTable('dependencies')
    .addColumn('service_id', 'text', (c) =>
      c.notNull().references('services.id').onDelete('cascade'),
    )
    .addColumn('depends_on_id', 'text', (c) =>
      c.notNull().references('services.id').onDelete('cascade'),
    )
    // Keeps the order in which dependencies were added.
    .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dependencies_pkey', ['service_id', 'depends_on_id'])
    .addCheckConstraint('dependencies_not_self', sql`service_id <> depends_on_id`)
    .execute();
  await db.schema
    .createIndex('dependencies_depends_on_idx')
    .on('dependencies')
    .columns(['depends_on_id', 'service_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['dependencies', 'services', 'owners', 'systems'])
    await db.schema.dropTable(table).execute();
}
