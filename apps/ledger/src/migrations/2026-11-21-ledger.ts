import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('resource', 'text')
    .addColumn('service', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('personal_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('anonymized_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('events_timestamp_idx')
    .on('events')
    .columns(['timestamp desc', 'seq desc'])
    .execute();
  for (const column of ['action', 'actor', 'resource', 'service'])
    await db.schema
      .createIndex(`events_${column}_timestamp_idx`)
      .on('events')
      .columns([column, 'timestamp'])
      .execute();

  // One row: the last link of the chain. Appenders lock it, so the chain stays linear.
  await db.schema
    .createTable('chain_head')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('chain_head' as never)
    .values({ id: 1, seq: 0, hash: '0'.repeat(64) } as never)
    .execute();

  // Where retention removed events: the event numbered next_seq follows prev_hash (the last
  // removed link) and comes after after_hash (the last event kept before the gap).
  await db.schema
    .createTable('checkpoints')
    .addColumn('next_seq', 'bigint', (c) => c.primaryKey())
    .addColumn('after_hash', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('policies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('retention_days', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('service', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_applied_at', 'timestamptz')
    .addColumn('last_affected', 'integer')
    .execute();
  await db.schema
    .createIndex('policies_name_key')
    .on('policies')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('classifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('service_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('justification', 'text', (c) => c.notNull())
    .addColumn('ppi_category', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('classifications_service_field_key', ['service_id', 'field'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['classifications', 'policies', 'checkpoints', 'chain_head', 'events'])
    await db.schema.dropTable(table).execute();
}
