import type { LedgerDb, SignedHeadRow } from '../database.js';

/** The latest head signed by `keyId`, if any. */
export const latestSignedHead = (db: LedgerDb, keyId: string) =>
  db
    .selectFrom('signed_heads')
    .selectAll()
    .where('key_id', '=', keyId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();

export async function insertSignedHead(db: LedgerDb, row: SignedHeadRow): Promise<void> {
  await db.insertInto('signed_heads').values(row).execute();
}

/** Newest first (by place in the chain, then by time of signing). */
export const listSignedHeads = (db: LedgerDb, page: { limit: number; offset: number }) =>
  db
    .selectFrom('signed_heads')
    .selectAll()
    .orderBy('seq', 'desc')
    .orderBy('signed_at', 'desc')
    .orderBy('key_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** The signed heads of the events numbered after `after` and up to `upTo`, in chain order. */
export const signedHeadsIn = (db: LedgerDb, range: { after: number; upTo: number }) =>
  db
    .selectFrom('signed_heads')
    .selectAll()
    .where('seq', '>', range.after)
    .where('seq', '<=', range.upTo)
    .orderBy('seq')
    .orderBy('signed_at')
    .execute();

/**
 * The hash the chain has at `seq` (below the head): the event's own, or, when retention removed
 * it as the last of a gap, the `prev_hash` its checkpoint keeps. Undefined when neither is left
 * (the event was inside a retention gap, or removed by hand).
 */
export async function storedHashAt(db: LedgerDb, seq: number): Promise<string | undefined> {
  const event = await db
    .selectFrom('events')
    .select('hash')
    .where('seq', '=', seq)
    .executeTakeFirst();
  if (event) return event.hash;
  const gap = await db
    .selectFrom('checkpoints')
    .select('prev_hash')
    .where('next_seq', '=', seq + 1)
    .executeTakeFirst();
  return gap?.prev_hash;
}
