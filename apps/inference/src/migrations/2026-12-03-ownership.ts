import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Ownership (issue 31): who made each logged call (an email, `key:<name>` for a team key, the
// person a platform service called for). The log is private to its callers and admins; rows
// logged before this keep null: they belong to no one (admins only).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('requests').addColumn('created_by', 'text').execute();
  // A caller's own log, newest first (GET /usage of a non-admin).
  await db.schema
    .createIndex('requests_creator_idx')
    .on('requests')
    .expression(sql`lower(created_by), created_at desc, id desc`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('requests_creator_idx').execute();
  await db.schema.alterTable('requests').dropColumn('created_by').execute();
}
