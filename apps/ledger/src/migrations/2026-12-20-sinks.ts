import { sql, type Kysely } from '@platform/db';

/** Where the trail is pushed as it grows (issue 38): webhooks and syslog receivers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sinks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    // webhook or syslog
    .addColumn('kind', 'text', (c) => c.notNull())
    // webhook: its https URL; syslog: host and port.
    .addColumn('url', 'text')
    .addColumn('host', 'text')
    .addColumn('port', 'integer')
    .addColumn('tls', 'boolean', (c) => c.notNull().defaultTo(false))
    // ndjson (the API's events) or ocsf (API Activity, class 6003)
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('ndjson'))
    // The webhook's signing secret, encrypted (AES-256-GCM, key from SESSION_SECRET).
    .addColumn('secret_encrypted', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    // The last event (chain seq) the receiver acknowledged: delivery resumes after it.
    .addColumn('cursor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sinks').execute();
}
