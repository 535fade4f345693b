import type { Transaction } from '@platform/db';
import type { ChainHead, CheckpointRow, EventRow, LedgerDatabase, LedgerDb } from '../database.js';

export type LedgerTransaction = Transaction<LedgerDatabase>;

/**
 * Runs `work` in one transaction that first locks the chain head row (`FOR UPDATE`): appends and
 * retention's deletions, from any number of requests and processes, take their turns at the end
 * of the chain. `work` is given the transaction and the head as it is at that moment.
 */
export function withChainHeadLocked<T>(
  db: LedgerDb,
  work: (trx: LedgerTransaction, head: ChainHead) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const head = await trx
      .selectFrom('chain_head')
      .select(['seq', 'hash'])
      .where('id', '=', 1)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return work(trx, head);
  });
}

/** Runs `work` in one repeatable-read transaction: a consistent snapshot while appends go on. */
export function withChainSnapshot<T>(
  db: LedgerDb,
  work: (trx: LedgerTransaction) => Promise<T>,
): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(work);
}

export function readChainHead(db: LedgerDb): Promise<ChainHead> {
  return db
    .selectFrom('chain_head')
    .select(['seq', 'hash'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
}

/** Moves the head to the last event appended (with the lock of `withChainHeadLocked` held). */
export async function moveChainHead(db: LedgerDb, head: ChainHead): Promise<void> {
  await db
    .updateTable('chain_head')
    .set({ seq: head.seq, hash: head.hash })
    .where('id', '=', 1)
    .execute();
}

/** A page of the chain in order: the events numbered after `after` and up to `upTo`. */
export function chainPage(
  db: LedgerDb,
  range: { after: number; upTo: number; limit: number },
): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', range.after)
    .where('seq', '<=', range.upTo)
    .orderBy('seq')
    .limit(range.limit)
    .execute();
}

export function listCheckpoints(db: LedgerDb): Promise<CheckpointRow[]> {
  return db.selectFrom('checkpoints').selectAll().execute();
}
