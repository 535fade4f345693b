import { notFound } from '@platform/core';
import { selectByIdOrName, sql, type Insertable, type Updateable } from '@platform/db';
import type { LedgerDb, SinkRow, SinksTable } from '../database.js';

export const listSinks = (
  db: LedgerDb,
  filter: { kind?: 'webhook' | 'syslog'; enabled?: boolean },
  page: { limit: number; offset: number },
) => {
  let query = db.selectFrom('sinks').selectAll();
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled);
  return query.orderBy('name').limit(page.limit).offset(page.offset).execute();
};

export async function getSink(db: LedgerDb, idOrName: string): Promise<SinkRow> {
  const row = await selectByIdOrName(db, 'sinks', idOrName);
  if (!row) throw notFound('Sink', idOrName);
  return row;
}

export const insertSink = (db: LedgerDb, row: Insertable<SinksTable>) =>
  db.insertInto('sinks').values(row).returningAll().executeTakeFirstOrThrow();

export const updateSink = (db: LedgerDb, id: string, changes: Updateable<SinksTable>) =>
  db
    .updateTable('sinks')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteSink = (db: LedgerDb, id: string) =>
  db.deleteFrom('sinks').where('id', '=', id).execute();

/** The chain's last seq: where a new sink starts (only what is appended from now on). */
export const headSeq = async (db: LedgerDb) =>
  Number((await db.selectFrom('chain_head').select('seq').executeTakeFirstOrThrow()).seq);

/** Enabled sinks due for an attempt. */
export const dueSinks = (db: LedgerDb) =>
  db
    .selectFrom('sinks')
    .selectAll()
    .where('enabled', '=', true)
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .orderBy('name')
    .execute();

/** The receiver acknowledged everything up to `seq`. */
export const advanceCursor = (db: LedgerDb, id: string, seq: number) =>
  db
    .updateTable('sinks')
    .set({ cursor: seq, failures: 0, last_error: null, delivered_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('cursor', '<', seq)
    .execute();

/** A failed attempt: retried after a backoff (1 s doubling, at most 5 min). */
export const recordFailure = (db: LedgerDb, sink: SinkRow, error: string) => {
  const delayMs = Math.min(1000 * 2 ** sink.failures, 300_000);
  return db
    .updateTable('sinks')
    .set({
      failures: sink.failures + 1,
      last_error: error.slice(0, 500),
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${delayMs / 1000})`,
    })
    .where('id', '=', sink.id)
    .execute();
};

/** Events after `after` in chain order, within [from, to] when given. */
export function eventsAfter(
  db: LedgerDb,
  range: { after: number; limit: number; from?: Date; to?: Date },
) {
  let query = db.selectFrom('events').selectAll().where('seq', '>', range.after);
  if (range.from) query = query.where('timestamp', '>=', range.from);
  if (range.to) query = query.where('timestamp', '<=', range.to);
  return query.orderBy('seq').limit(range.limit).execute();
}

/**
 * Signed heads the sink has not taken (signed after its `heads_after`) that cover only events it
 * has taken (seq up to its cursor), oldest first.
 */
export const headsToSend = (db: LedgerDb, sink: SinkRow, cursor: number, limit: number) =>
  db
    .selectFrom('signed_heads')
    .selectAll()
    .where('signed_at', '>', sink.heads_after)
    .where('seq', '<=', cursor)
    .orderBy('signed_at')
    .orderBy('key_id')
    .limit(limit)
    .execute();

/** The receiver took the heads signed up to `signedAt`. */
export const advanceHeads = (db: LedgerDb, id: string, signedAt: Date) =>
  db
    .updateTable('sinks')
    .set({ heads_after: signedAt, failures: 0, last_error: null, delivered_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('heads_after', '<', signedAt)
    .execute();
