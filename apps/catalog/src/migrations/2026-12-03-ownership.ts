import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who made a service, system or API (an email, `key:<name>` for a team key)
// and the team (a catalog owner) that owns it; who made an owner, and its members, the emails of
// the people in that team. Rows made before this keep null: they belong to no one (admins only).
// Every service asks which teams a person is in (`GET /owners?member=`): a GIN index answers
// `members @> '["email"]'` (jsonb_path_ops serves @> only, and is smaller), without fastupdate
// for the reason the search indexes have none (a pending list PGlite never merges).
const OWNED = ['services', 'systems', 'apis'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of OWNED)
    await db.schema
      .alterTable(table)
      .addColumn('created_by', 'text')
      .addColumn('team', 'text')
      .execute();
  await db.schema
    .alterTable('owners')
    .addColumn('created_by', 'text')
    .addColumn('members', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await sql`
    create index owners_members_idx on catalog.owners
    using gin (members jsonb_path_ops) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index catalog.owners_members_idx`.execute(db);
  await db.schema.alterTable('owners').dropColumn('members').dropColumn('created_by').execute();
  for (const table of OWNED)
    await db.schema.alterTable(table).dropColumn('created_by').dropColumn('team').execute();
}
