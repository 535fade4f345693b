import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who made a session or published an app (an email, `key:<name>` for a team
// key), the team (a catalog owner) it may name, and a session's collaborators (emails, lower
// case). Rows made before this keep null: they belong to no one (admins only).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('created_by', 'text')
    .addColumn('team', 'text')
    .addColumn('collaborators', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .alterTable('apps')
    .addColumn('created_by', 'text')
    .addColumn('team', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').dropColumn('created_by').dropColumn('team').execute();
  await db.schema
    .alterTable('sessions')
    .dropColumn('created_by')
    .dropColumn('team')
    .dropColumn('collaborators')
    .execute();
}
