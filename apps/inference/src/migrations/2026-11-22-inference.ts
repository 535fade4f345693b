import { newId } from '@platform/core';
import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('default_model', 'text', (c) => c.notNull())
    .addColumn('env_var', 'text')
    .addColumn('base_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('providers_name_key')
    .on('providers')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createTable('models')
    .addColumn('provider_id', 'text', (c) =>
      c.notNull().references('providers.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('models_pkey', ['provider_id', 'name'])
    .execute();
  // The request log outlives its provider: provider_id is kept as text, the name beside it.
  await db.schema
    .createTable('requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text')
    .addColumn('provider', 'text')
    .addColumn('model', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input_tokens', 'integer')
    .addColumn('output_tokens', 'integer')
    .addColumn('estimated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('ttft_ms', 'integer')
    .addColumn('cost_micros', 'bigint')
    .addColumn('error', 'text')
    .addColumn('request_id', 'text')
    .addColumn('app', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('requests_created_idx')
    .on('requests')
    .columns(['created_at', 'id'])
    .execute();
  // A fresh install answers every route offline through the mock provider.
  await (
    db as Kysely<{ providers: { id: string; name: string; type: string; default_model: string } }>
  )
    .insertInto('providers')
    .values({ id: newId(), name: 'mock', type: 'mock', default_model: 'mock-1' })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('requests').execute();
  await db.schema.dropTable('models').execute();
  await db.schema.dropTable('providers').execute();
}
