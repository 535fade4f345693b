import { sql, type Kysely } from '@platform/db';

const now = sql`now()`;
const emptyList = sql`'[]'::jsonb`;

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('sessions_email_idx')
    .on('sessions')
    .expression(sql`lower(email), created_at desc`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('bootstrap', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // A name is unique among the keys not revoked: a revoked key keeps its name in the list.
  await db.schema
    .createIndex('api_keys_name_key')
    .on('api_keys')
    .unique()
    .expression(sql`lower(name)`)
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('login_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('scopes', 'jsonb', (c) => c.notNull().defaultTo(emptyList))
    .addColumn('session_id', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_states_expires_idx')
    .on('login_states')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('authorize_url', 'text', (c) => c.notNull())
    .addColumn('token_url', 'text', (c) => c.notNull())
    .addColumn('scopes', 'jsonb', (c) => c.notNull().defaultTo(emptyList))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('providers_name_key')
    .on('providers')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('token_type', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('scopes', 'jsonb', (c) => c.notNull().defaultTo(emptyList))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('connections_user_provider_key')
    .on('connections')
    .unique()
    .expression(sql`lower(email), provider`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['connections', 'providers', 'login_states', 'api_keys', 'sessions'])
    await db.schema.dropTable(table).execute();
}
