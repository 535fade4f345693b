import { notFound } from '@platform/core';
import { jsonb, type Transaction } from '@platform/db';
import type { ChainHead, EventRow, LedgerDatabase, LedgerDb } from '../database.js';

type EventFilter = Partial<Pick<EventRow, 'action' | 'actor' | 'resource' | 'service'>> & {
  from?: Date;
  to?: Date;
  afterSeq?: number;
};

/**
 * Newest first (by timestamp, then by place in the chain); with `afterSeq`, the events after it
 * in chain order (the `seq` primary key's index: a cursor for readers that follow the trail).
 */
export function listEvents(
  db: LedgerDb,
  { from, to, afterSeq, ...equal }: EventFilter,
  page: { limit: number; offset: number },
): Promise<EventRow[]> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where((eb) => eb.and(equal));
  if (from) query = query.where('timestamp', '>=', from);
  if (to) query = query.where('timestamp', '<=', to);
  if (afterSeq !== undefined)
    return query.where('seq', '>', afterSeq).orderBy('seq').limit(page.limit).offset(page.offset).execute(); // prettier-ignore
  return query
    .orderBy('timestamp', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findEvent = (db: LedgerDb, id: string) =>
  db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('Audit event', id));

/** Which of these event ids the chain holds. */
export async function findIds(db: LedgerDb, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('events').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

const chainHead = (db: LedgerDb) =>
  db.selectFrom('chain_head').select(['seq', 'hash']).where('id', '=', 1);

/**
 * Runs `work` in one transaction that first locks the chain head row (`FOR UPDATE`): appends and
 * retention's deletions, from any number of requests and processes, take their turns at the end
 * of the chain. `work` is given the transaction and the head as it is at that moment.
 */
export function withChainHeadLocked<T>(
  db: LedgerDb,
  work: (trx: Transaction<LedgerDatabase>, head: ChainHead) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const head = await chainHead(trx).forUpdate().executeTakeFirstOrThrow();
    return work(trx, head);
  });
}

/** Inserts linked events in one statement and moves the head to the last (`withChainHeadLocked`). */
export async function extendChain(trx: LedgerDb, rows: EventRow[]): Promise<void> {
  const last = rows.at(-1);
  if (!last) return;
  await trx
    .insertInto('events')
    .values(
      rows.map((row) => ({ ...row, metadata: jsonb(row.metadata), details: jsonb(row.details) })),
    )
    .execute();
  await trx
    .updateTable('chain_head')
    .set({ seq: last.seq, hash: last.hash })
    .where('id', '=', 1)
    .execute();
}

/**
 * Runs `work` in one repeatable-read transaction (a consistent snapshot while appends go on),
 * given the head of the chain in that snapshot.
 */
export function withChainSnapshot<T>(
  db: LedgerDb,
  work: (trx: Transaction<LedgerDatabase>, head: ChainHead) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => work(trx, await chainHead(trx).executeTakeFirstOrThrow()));
}

/** A page of the chain in order: the events numbered after `after` and up to `upTo`. */
export const chainPage = (db: LedgerDb, range: { after: number; upTo: number; limit: number }) =>
  db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', range.after)
    .where('seq', '<=', range.upTo)
    .orderBy('seq')
    .limit(range.limit)
    .execute();

export const listCheckpoints = (db: LedgerDb) => db.selectFrom('checkpoints').selectAll().execute();
