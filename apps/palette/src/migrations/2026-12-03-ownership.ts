import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who made a record (an email, `key:<name>` for a team key) and the team (a
// catalog owner) that owns it with its creator. Rows made before this keep null: they belong to
// no one (admins only).
const TABLES = ['tokens', 'components', 'patterns', 'standards', 'rules'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES)
    await db.schema
      .alterTable(table)
      .addColumn('created_by', 'text')
      .addColumn('team', 'text')
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES)
    await db.schema.alterTable(table).dropColumn('created_by').dropColumn('team').execute();
}
