import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 34: keys with budgets and limits (their counters shared by every instance), provider
// weights and cool-downs, the response cache, and the request log's key and cache columns.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_limits')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('budget_micros', 'bigint')
    .addColumn('period', 'text')
    .addColumn('rpm', 'integer')
    .addColumn('tpm', 'integer')
    .addColumn('models', sql`text[]`)
    .addColumn('cache_ttl_s', 'integer')
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One row per key and window (a minute, a UTC day, a UTC month), added to atomically.
  await db.schema
    .createTable('key_counters')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cost_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('key_counters_pkey', ['key_id', 'window', 'starts_at'])
    .execute();
  await db.schema.alterTable('providers').addColumn('weight', 'integer').execute();
  await db.schema
    .createTable('provider_cooldowns')
    .addColumn('provider_id', 'text', (c) => c.primaryKey())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .addColumn('reason', 'text')
    .execute();
  await db.schema
    .createTable('cache_entries')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('cache_entries_expires_idx')
    .on('cache_entries')
    .column('expires_at')
    .execute();
  await db.schema
    .alterTable('requests')
    .addColumn('key_id', 'text')
    .addColumn('cached', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('requests_key_idx')
    .on('requests')
    .columns(['key_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('requests_key_idx').execute();
  await db.schema.alterTable('requests').dropColumn('cached').dropColumn('key_id').execute();
  await db.schema.dropTable('cache_entries').execute();
  await db.schema.dropTable('provider_cooldowns').execute();
  await db.schema.alterTable('providers').dropColumn('weight').execute();
  await db.schema.dropTable('key_counters').execute();
  await db.schema.dropTable('key_limits').execute();
}
