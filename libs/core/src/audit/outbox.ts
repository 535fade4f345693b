import { sql, type Kysely, type Migrations, type PlatformDatabase } from '@platform/db';

// The audit outbox (issue 38): one table in every service schema, made by libs/core's own
// migrations (tracked apart from the service's and libs/db's, in `core_migration`), the way libs/db
// makes the jobs table. A state-changing request writes its row `pending` before its handler runs
// and `succeeded` before its answer leaves; the relay (./relay.ts) delivers rows to the ledger.

/** `rejected`: the ledger refused the row as invalid (400); kept, never sent again. */
export const OUTBOX_STATUSES = ['pending', 'succeeded', 'rejected'] as const;

export interface OutboxTable {
  /** The ledger event's id: the ledger records each id once (a redelivery is a no-op). */
  id: string;
  /** Delivery order: the order rows were written. */
  seq: number;
  status: (typeof OUTBOX_STATUSES)[number];
  /** `<service>.<operationId>` */
  action: string;
  /** Who: an email, `key:<name>`, `service:<name>`, or null (authentication off). */
  actor: string | null;
  /** The identity's kind: user, key, service or anonymous. */
  actor_kind: string;
  resource: string | null;
  method: string;
  /** The route's template (`/api/v1/catalog/services/:id`), never the URL as sent. */
  route: string;
  status_code: number | null;
  request_id: string;
  created_at: Date;
  completed_at: Date | null;
}

export type OutboxDb = Kysely<{ audit_outbox: OutboxTable }>;

/** Frozen like any migration: never edit one that has shipped; add a new one. */
export const CORE_MIGRATIONS: Migrations = {
  '2026-12-20-audit-outbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor', 'text')
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('resource', 'text')
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('completed_at', 'timestamptz')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_outbox').execute();
    },
  },
  '2026-12-20-jobs-trace-context': {
    // The W3C trace context of the request that queued a job (tracing.ts): its run joins that
    // trace. Written only by processes that export traces.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('trace_context', 'jsonb').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').dropColumn('trace_context').execute();
    },
  },
};

/**
 * Brings libs/core's own tables in `schema` up to date (after migrateSchema made the schema): one
 * query when they are; else, under a lock on the schema's name (processes starting together),
 * each migration not yet run, recorded in `core_migration`.
 */
export async function migrateCore(db: PlatformDatabase, schema: string): Promise<void> {
  const names = Object.keys(CORE_MIGRATIONS);
  try {
    const { rows } = await sql<{ name: string }>`
      select name from ${sql.table(`${schema}.core_migration`)}`.execute(db.kysely);
    if (names.every((name) => rows.some((r) => r.name === name))) return;
  } catch {
    // Not migrated yet.
  }
  await db.kysely.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`core_migration:${schema}`}))`.execute(trx);
    await sql`create table if not exists ${sql.table(`${schema}.core_migration`)} (
      name text primary key, executed_at timestamptz not null default now())`.execute(trx);
    const { rows } = await sql<{ name: string }>`
      select name from ${sql.table(`${schema}.core_migration`)}`.execute(trx);
    for (const name of names) {
      if (rows.some((r) => r.name === name)) continue;
      await CORE_MIGRATIONS[name].up(trx.withSchema(schema));
      await sql`insert into ${sql.table(`${schema}.core_migration`)} (name) values (${name})`.execute(
        trx,
      );
    }
  });
}

export interface NewOutboxRow {
  id: string;
  action: string;
  actor: string | null;
  actor_kind: string;
  method: string;
  route: string;
  request_id: string;
}

export async function insertPending(db: OutboxDb, row: NewOutboxRow) {
  await db
    .insertInto('audit_outbox')
    .values({ ...row, status: 'pending' } as never)
    .execute();
}

/** The outcome of a request: a success's row becomes deliverable; any other answer's goes. */
export async function completeRow(
  db: OutboxDb,
  id: string,
  outcome: { succeeded: boolean; statusCode: number; resource: string | null },
) {
  if (!outcome.succeeded) {
    await db.deleteFrom('audit_outbox').where('id', '=', id).execute();
    return;
  }
  await db
    .updateTable('audit_outbox')
    .set({
      status: 'succeeded',
      status_code: outcome.statusCode,
      resource: outcome.resource,
      completed_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * The next rows to deliver, in order: succeeded ones, and pending ones older than `graceMs` (their
 * process died between the change and its answer, or the answer failed: outcome unknown).
 */
export function deliverable(db: OutboxDb, graceMs: number, limit: number) {
  return db
    .selectFrom('audit_outbox')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('status', '=', 'succeeded'),
        eb.and([
          eb('status', '=', 'pending'),
          eb('created_at', '<', sql<Date>`now() - make_interval(secs => ${graceMs / 1000})`),
        ]),
      ]),
    )
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function removeDelivered(db: OutboxDb, ids: string[]) {
  if (ids.length) await db.deleteFrom('audit_outbox').where('id', 'in', ids).execute();
}

/** A row the ledger refused as invalid: set aside (kept for an operator), never sent again. */
export async function setAside(db: OutboxDb, id: string) {
  await db.updateTable('audit_outbox').set({ status: 'rejected' }).where('id', '=', id).execute();
}
