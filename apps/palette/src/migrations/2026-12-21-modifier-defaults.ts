import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// The default context of each modifier an import read (theme: light, brand: a ...), so that the
// DTCG export names it as the file did, whatever the other contexts are called (issue 37).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('modifiers')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('default_context', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('modifiers').execute();
}
