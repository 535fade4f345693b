import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('properties', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('user_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('events_timestamp_idx')
    .on('events')
    .columns(['timestamp desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('events_name_timestamp_idx')
    .on('events')
    .columns(['name', 'timestamp'])
    .execute();
  await db.schema
    .createIndex('events_user_timestamp_idx')
    .on('events')
    .columns(['user_id', 'timestamp'])
    .execute();
  await db.schema
    .createIndex('events_session_timestamp_idx')
    .on('events')
    .columns(['session_id', 'timestamp'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
