import { jsonb } from '@platform/db';
import type { EventRow, LedgerDb } from '../database.js';

export interface EventFilter {
  action?: string;
  actor?: string;
  resource?: string;
  service?: string;
  from?: Date;
  to?: Date;
}

/** Newest first (by timestamp, then by place in the chain). */
export function listEvents(
  db: LedgerDb,
  filter: EventFilter,
  page: { limit: number; offset: number },
): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll();
  for (const column of ['action', 'actor', 'resource', 'service'] as const) {
    const value = filter[column];
    if (value !== undefined) query = query.where(column, '=', value);
  }
  if (filter.from) query = query.where('timestamp', '>=', filter.from);
  if (filter.to) query = query.where('timestamp', '<=', filter.to);
  return query
    .orderBy('timestamp', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findEvent(db: LedgerDb, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts chained events in one statement (inside the append's transaction). */
export async function insertEvents(db: LedgerDb, rows: EventRow[]): Promise<void> {
  await db
    .insertInto('events')
    .values(
      rows.map((row) => ({ ...row, metadata: jsonb(row.metadata), details: jsonb(row.details) })),
    )
    .execute();
}
