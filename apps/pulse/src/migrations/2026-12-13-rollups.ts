import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 35: what the insights read at the scale of millions of events (bench/pulse-insights.mjs
// measures them against plain SQL on the events table).
export async function up(db: Kysely<unknown>): Promise<void> {
  // Events per name and quarter hour (UTC-aligned: every zone's hour and day starts on one, offsets
  // such as +05:30 and +05:45 included). A trend's total reads these instead of the events;
  // insertEvents keeps them in the same statement as the events it stores.
  await db.schema
    .createTable('event_rollups')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slot', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_rollups_pkey', ['name', 'slot'])
    .execute();
  await sql`insert into pulse.event_rollups (name, slot, count)
    select name, date_bin('15 minutes', timestamp, timestamptz '2001-01-01 00:00:00+00'), count(*)
    from pulse.events group by 1, 2`.execute(db);
  // Unique users, funnels and retention read (name, timestamp, user_id) of one name's range: with
  // user_id in the index they are index-only scans, not a heap fetch per event. It replaces the
  // index on (name, timestamp), which it covers.
  await sql`create index events_name_timestamp_user_idx on pulse.events (name, timestamp) include (user_id)`.execute(
    db,
  );
  await db.schema.dropIndex('events_name_timestamp_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('events_name_timestamp_idx')
    .on('events')
    .columns(['name', 'timestamp'])
    .execute();
  await db.schema.dropIndex('events_name_timestamp_user_idx').execute();
  await db.schema.dropTable('event_rollups').execute();
}
