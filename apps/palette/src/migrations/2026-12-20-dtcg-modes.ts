import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// DTCG 2025.10 imports (issue 37): a token keeps its path in the file it came from (names stay
// unique, paths may share a last segment) and its DTCG source (the value as written, $deprecated,
// $extensions) so that an export writes the same document back. Modes beyond light and dark: a
// value per mode (`<modifier>:<context>`, e.g. `brand:b`), and per mode the CSS selector and media
// query its values go under. Light and dark stay where they are (value_default, value_dark): dark
// is the mode `theme:dark`. Sources are JSON text: jsonb would not keep the order of their keys.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('path', 'text')
    .addColumn('source', 'text')
    .execute();
  await db.schema
    .createIndex('tokens_path_key')
    .on('tokens')
    .unique()
    .expression(sql`lower(path)`)
    .execute();
  await db.schema
    .createTable('token_mode_values')
    .addColumn('token_id', 'text', (c) => c.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('value_ref', 'text', (c) => c.references('tokens.id').onDelete('restrict'))
    .addColumn('source', 'text')
    .addPrimaryKeyConstraint('token_mode_values_pkey', ['token_id', 'mode'])
    .execute();
  await db.schema
    .createIndex('token_mode_values_ref_idx')
    .on('token_mode_values')
    .column('value_ref')
    .execute();
  await db.schema
    .createTable('modes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('modes').execute();
  await db.schema.dropTable('token_mode_values').execute();
  await db.schema.dropIndex('tokens_path_key').execute();
  await db.schema.alterTable('tokens').dropColumn('path').dropColumn('source').execute();
}
