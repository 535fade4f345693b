import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Names are unique in any case; the index also serves the list order.
  await db.schema
    .createIndex('channels_name_key')
    .on('channels')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull().references('channels.id'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('registrations_app_channel_key', ['app_id', 'channel_id'])
    .execute();
  await db.schema
    .createIndex('registrations_channel_idx')
    .on('registrations')
    .column('channel_id')
    .execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('accepted'))
    .addColumn('provider_message_id', 'text')
    .addColumn('error', 'text')
    .addColumn('live', 'boolean', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Null keys are distinct: only keyed sends are deduplicated.
    .addUniqueConstraint('deliveries_idempotency_key', ['app_id', 'idempotency_key'])
    .execute();
  // The list order (newest first), per app.
  await db.schema
    .createIndex('deliveries_list_idx')
    .on('deliveries')
    .columns(['app_id', 'created_at desc', 'id desc'])
    .execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('deliveries.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('delivery_attempts_pkey', ['delivery_id', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['delivery_attempts', 'deliveries', 'registrations', 'channels'])
    await db.schema.dropTable(table).execute();
}
