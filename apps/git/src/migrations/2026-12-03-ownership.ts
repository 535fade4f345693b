import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who registered a provider or connected a repository (an email, or
// `key:<name>` for a team key) and the team (a catalog owner) it may name. Rows made before this
// keep null: they belong to no one (admins only).
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['providers', 'repositories'])
    await db.schema
      .alterTable(table)
      .addColumn('created_by', 'text')
      .addColumn('team', 'text')
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['repositories', 'providers'])
    await db.schema.alterTable(table).dropColumn('created_by').dropColumn('team').execute();
}
