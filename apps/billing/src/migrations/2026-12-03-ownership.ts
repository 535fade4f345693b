import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who made an item or a category (an email, `key:<name>` for a team key)
// and the team (a catalog owner) it may name; who started a sync job. Rows made before this keep
// null: they belong to no one (admins only).
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['items', 'categories'])
    await db.schema
      .alterTable(table)
      .addColumn('created_by', 'text')
      .addColumn('team', 'text')
      .execute();
  await db.schema.alterTable('sync_jobs').addColumn('created_by', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sync_jobs').dropColumn('created_by').execute();
  for (const table of ['items', 'categories'])
    await db.schema.alterTable(table).dropColumn('created_by').dropColumn('team').execute();
}
