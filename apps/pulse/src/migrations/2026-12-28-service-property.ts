import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 39: the catalog's overview counts a service's events of the last 30 days by their
// `service` property (top-events with property=service). The expression and the timestamp in one
// index make that a range scan of the service's events, not of every event. Only `service` is
// indexed, so only it may be filtered by.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_service_timestamp_idx
    on pulse.events ((properties ->> 'service'), timestamp)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_service_timestamp_idx').execute();
}
