import { sql, type Kysely } from '@platform/db';

interface TokensOnly {
  tokens: { category: string; value_default: string };
}

// Frozen: never edit a migration that has shipped; add a new one.
// A token's value (default or dark) may be an alias of another token: the column holds the id of
// the token referred to, and the database refuses to delete a token that others refer to.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('value_default_ref', 'text', (c) => c.references('tokens.id').onDelete('restrict'))
    .addColumn('value_dark_ref', 'text', (c) => c.references('tokens.id').onDelete('restrict'))
    .execute();
  for (const column of ['value_default_ref', 'value_dark_ref'])
    await db.schema.createIndex(`tokens_${column}_idx`).on('tokens').column(column).execute();

  // Font weights and families used to be filed as typography, which exports typed as font sizes
  // (Style Dictionary then made `400rem`): they move to the categories that export them right.
  // Through the query builder, which names the service's schema (raw SQL would not).
  const tokens = () => (db as Kysely<TokensOnly>).updateTable('tokens');
  await tokens()
    .set({ category: 'font-weight' })
    .where('category', '=', 'typography')
    .where(
      sql<boolean>`value_default ~ '^([1-9][0-9]{0,2}|1000)$' or lower(value_default) in ('thin',
        'hairline', 'extra-light', 'ultra-light', 'light', 'normal', 'regular', 'book', 'medium',
        'semi-bold', 'demi-bold', 'bold', 'extra-bold', 'ultra-bold', 'black', 'heavy',
        'extra-black', 'ultra-black')`,
    )
    .execute();
  await tokens()
    .set({ category: 'font-family' })
    .where('category', '=', 'typography')
    .where(
      // [[:space:]], not \s: a template literal would turn `\s` into a plain `s`.
      sql<boolean>`value_default ~ '^[[:space:]]*["'']' or lower(value_default) ~ '(^|,)[[:space:]]*(serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded|emoji|math|fangsong)[[:space:]]*(,|$)'`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<TokensOnly>)
    .updateTable('tokens')
    .set({ category: 'typography' })
    .where('category', 'in', ['font-weight', 'font-family'])
    .execute();
  await db.schema
    .alterTable('tokens')
    .dropColumn('value_default_ref')
    .dropColumn('value_dark_ref')
    .execute();
}
