import { sql, type Kysely } from '@platform/db';

const emptyList = sql`'[]'::jsonb`;

// Frozen: never edit a migration that has shipped; add a new one.
// Roles and scoped keys (issue 31): a person's role set by an admin, the `groups` claim of each
// session, and a key's scopes, team and the role it may act with.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_role_check', sql`role in ('viewer', 'member', 'admin')`)
    .addCheckConstraint('users_email_lower', sql`email = lower(email)`)
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('groups', 'jsonb', (c) => c.notNull().defaultTo(emptyList))
    .execute();
  // Keys made before scopes existed keep every scope their creator's role allows ('*').
  await db.schema
    .alterTable('api_keys')
    .addColumn('scopes', 'jsonb', (c) => c.notNull().defaultTo(sql`'["*"]'::jsonb`))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('team', 'text').execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('creator_groups', 'jsonb', (c) => c.notNull().defaultTo(emptyList))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('fixed_role', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['fixed_role', 'creator_groups', 'team', 'scopes'])
    await db.schema.alterTable('api_keys').dropColumn(column).execute();
  await db.schema.alterTable('sessions').dropColumn('groups').execute();
  await db.schema.dropTable('users').execute();
}
