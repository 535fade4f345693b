import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 35: persons (the people behind distinct ids) and the ids that name each of them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('persons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('properties', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // Identified by $identify or a Segment identify with a userId: another identified person is
    // never merged into it by a later $identify (PostHog's rule), only by an alias.
    .addColumn('identified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Every distinct id an event may carry (events.user_id) names one person; merging persons moves
  // the ids of one onto the other.
  await db.schema
    .createTable('person_ids')
    .addColumn('distinct_id', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('person_ids_person_idx')
    .on('person_ids')
    .column('person_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('person_ids').execute();
  await db.schema.dropTable('persons').execute();
}
