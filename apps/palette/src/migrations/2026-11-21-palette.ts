import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  const table = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`));

  await table('tokens')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('value_default', 'text', (c) => c.notNull())
    .addColumn('value_dark', 'text')
    .addColumn('css_variable', 'text', (c) => c.notNull().unique())
    .addColumn('tailwind_key', 'text', (c) => c.notNull())
    .addColumn('group', 'text')
    .addUniqueConstraint('tokens_tailwind_key', ['category', 'tailwind_key'])
    .execute();
  await table('components')
    .addColumn('category', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('props', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('variants', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('examples', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await table('patterns')
    .addColumn('category', 'text')
    .addColumn('steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await table('standards')
    .addColumn('category', 'text')
    .addColumn('guidelines', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await table('rules')
    .addColumn('category', 'text')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('wcag', 'text')
    .addColumn('level', 'text')
    .execute();
  for (const name of ['tokens', 'components', 'patterns', 'standards', 'rules'])
    await db.schema
      .createIndex(`${name}_name_key`)
      .on(name)
      .unique()
      .expression(sql`lower(name)`)
      .execute();

  // Relations. A token in use by a component cannot be deleted (restrict); a deleted component
  // leaves the patterns and rules that named it.
  const link = (
    name: string,
    from: [string, string],
    to: [string, string],
    onDelete: 'cascade' | 'restrict',
  ) =>
    db.schema
      .createTable(name)
      .addColumn(from[0], 'text', (c) =>
        c.notNull().references(`${from[1]}.id`).onDelete('cascade'),
      )
      .addColumn(to[0], 'text', (c) => c.notNull().references(`${to[1]}.id`).onDelete(onDelete))
      .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
      .addPrimaryKeyConstraint(`${name}_pkey`, [from[0], to[0]])
      .execute();
  await link(
    'component_tokens',
    ['component_id', 'components'],
    ['token_id', 'tokens'],
    'restrict',
  );
  await link(
    'pattern_components',
    ['pattern_id', 'patterns'],
    ['component_id', 'components'],
    'cascade',
  );
  await link('rule_components', ['rule_id', 'rules'], ['component_id', 'components'], 'cascade');
  await db.schema
    .createIndex('component_tokens_token_idx')
    .on('component_tokens')
    .column('token_id')
    .execute();
  await db.schema
    .createIndex('pattern_components_component_idx')
    .on('pattern_components')
    .column('component_id')
    .execute();
  await db.schema
    .createIndex('rule_components_component_idx')
    .on('rule_components')
    .column('component_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'rule_components',
    'pattern_components',
    'component_tokens',
    'rules',
    'standards',
    'patterns',
    'components',
    'tokens',
  ])
    await db.schema.dropTable(name).execute();
}
