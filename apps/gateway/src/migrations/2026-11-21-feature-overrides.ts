import { sql, type Kysely } from '@platform/db';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feature_overrides')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('feature_overrides').execute();
}
