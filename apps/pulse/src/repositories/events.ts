import { jsonb, sql, type Insertable } from '@platform/db';
import type { EventRow, EventsTable, PulseDb } from '../database.js';

export type NewEvent = Insertable<EventsTable> & { id: string };

const toRow = (event: NewEvent) => ({ ...event, properties: jsonb(event.properties) });

export interface EventFilter {
  name?: string;
  userId?: string;
  sessionId?: string;
  from?: Date;
  to?: Date;
  /** Only events whose `service` property is this value, as text (index of 2026-12-28). */
  service?: string;
}

/** Longest a count of one service's events may run; past it, the query is cancelled. */
export const SERVICE_QUERY_TIMEOUT_MS = 5000;

/** The quarter hour of an event, as the rollups count it (migration 2026-12-13-rollups). */
export const SLOT = sql<Date>`date_bin('15 minutes', timestamp, timestamptz '2001-01-01 00:00:00+00')`;

/**
 * Inserts events and counts them into the rollups, in one statement (one transaction): the
 * events' insert, then an upsert of their counts per name and quarter hour, in key order (two
 * batches upserting the same rows never wait on each other in a cycle). Ids that exist already
 * are skipped, and not counted. Selects from the rows stored.
 */
function insertCounted(db: PulseDb, events: NewEvent[]) {
  return db
    .with('stored', (q) =>
      q
        .insertInto('events')
        .values(events.map(toRow))
        .onConflict((oc) => oc.column('id').doNothing())
        .returningAll(),
    )
    .with('counted', (q) =>
      q
        .insertInto('event_rollups')
        .columns(['name', 'slot', 'count'])
        .expression((eb) =>
          eb
            .selectFrom('stored')
            .select(['name', SLOT.as('slot'), sql<number>`count(*)`.as('count')])
            .groupBy(['name', 'slot'])
            .orderBy('name')
            .orderBy('slot'),
        )
        .onConflict((oc) =>
          oc
            .columns(['name', 'slot'])
            .doUpdateSet({ count: sql`event_rollups.count + excluded.count` }),
        ),
    )
    .selectFrom('stored');
}

/**
 * Inserts events in one statement; ids that exist already are skipped. Returns the ids stored.
 * `counted: false` leaves the rollups to `countEvents`, for a transaction that has more to do
 * before it commits: the rollups' rows are then locked only for its last statement.
 */
export async function insertEvents(
  db: PulseDb,
  events: NewEvent[],
  { counted = true } = {},
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const stored = counted
    ? await insertCounted(db, events).select('id').execute()
    : await db
        .insertInto('events')
        .values(events.map(toRow))
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
  return new Set(stored.map((row) => row.id));
}

/** Counts stored events into the rollups (what `insertEvents` does unless told otherwise). */
export async function countEvents(db: PulseDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto('event_rollups')
    .columns(['name', 'slot', 'count'])
    .expression((eb) =>
      eb
        .selectFrom('events')
        .select(['name', SLOT.as('slot'), sql<number>`count(*)`.as('count')])
        .where('id', 'in', ids)
        .groupBy(['name', 'slot'])
        .orderBy('name')
        .orderBy('slot'),
    )
    .onConflict((oc) =>
      oc
        .columns(['name', 'slot'])
        .doUpdateSet({ count: sql`event_rollups.count + excluded.count` }),
    )
    .execute();
}

/** Inserts one event; undefined when its id is stored already. */
export function insertEvent(db: PulseDb, event: NewEvent): Promise<EventRow | undefined> {
  return insertCounted(db, [event]).selectAll().executeTakeFirst();
}

export function findEvent(db: PulseDb, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

function filtered(db: PulseDb, filter: EventFilter) {
  let query = db.selectFrom('events');
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
  if (filter.from) query = query.where('timestamp', '>=', filter.from);
  if (filter.to) query = query.where('timestamp', '<=', filter.to);
  // Written as the index's expression (migration 2026-12-28-service-property), so it is used.
  if (filter.service !== undefined)
    query = query.where(sql<boolean>`(properties ->> 'service') = ${filter.service}`);
  return query;
}

export function listEvents(
  db: PulseDb,
  filter: EventFilter,
  page: { limit: number; offset: number },
) {
  return filtered(db, filter)
    .selectAll()
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * Event names by count. Filtered by service, in a transaction whose statement_timeout is
 * SERVICE_QUERY_TIMEOUT_MS: a caller that stopped waiting (the catalog's overview) does not
 * leave it running for long.
 */
export function topEvents(db: PulseDb, filter: EventFilter, limit: number) {
  const count = (q: PulseDb) =>
    filtered(q, filter)
      .select(['name', sql<number>`count(*)::int`.as('count')])
      .groupBy('name')
      .orderBy('count', 'desc')
      .orderBy('name', 'asc')
      .limit(limit)
      .execute();
  if (filter.service === undefined) return count(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = ${sql.lit(SERVICE_QUERY_TIMEOUT_MS)}`.execute(trx);
    return count(trx);
  });
}
