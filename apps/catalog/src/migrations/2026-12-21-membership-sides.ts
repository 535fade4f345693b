import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Which side of a membership declared it (issue 37): a user's `spec.memberOf`, a group's
// `spec.members`, or both. An import of a user replaces only what that user's side declared; a
// group outside the import keeps the members it declared. Pairs stored before count as both
// (none is removed by a side that may not have declared it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memberships')
    .addColumn('from_member', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('from_group', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memberships')
    .dropColumn('from_member')
    .dropColumn('from_group')
    .execute();
}
