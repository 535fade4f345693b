import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Signed chain heads go to the sinks with the events (issue 38): each sink remembers the time of
// the last head it took; heads signed after it are sent (a sink made now starts now).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sinks')
    .addColumn('heads_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sinks').dropColumn('heads_after').execute();
}
