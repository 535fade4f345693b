import { GENESIS_HASH, eventHash, personalHash } from './chain.js';
import type { EventRow, LedgerDb } from '../database.js';
import { chainPage, listCheckpoints, withChainSnapshot } from '../repositories/events.js';
import type { VerifyResult } from '../schemas/events.js';
import { SignedHeadCheck, type SigningSettings } from './verify-signatures.js';

const PAGE = 5000;

const isEmpty = (value: Record<string, unknown>) => Object.keys(value).length === 0;

/** What is wrong with one event's own hashes, or undefined when they verify. */
function contentProblem(row: EventRow): string | undefined {
  let personal = row.personal_hash;
  if (row.anonymized_at === null) {
    personal = personalHash(row);
    if (personal !== row.personal_hash) return 'its actor, metadata or details were changed';
  } else if (row.actor !== null || !isEmpty(row.metadata) || !isEmpty(row.details)) {
    return 'it is marked anonymized but holds personal data';
  }
  if (eventHash(row, personal, row.prev_hash) !== row.hash) return 'its content was changed';
  return undefined;
}

/**
 * Re-computes the chain from the first event to the head, in pages, inside one repeatable-read
 * transaction (a consistent snapshot while appends go on). An event is valid when its hashes match
 * its content and it follows the event before it: its prev_hash is that event's hash, or a
 * checkpoint left by retention vouches for the gap between them. As the walk passes the event
 * number of a signed head, the head is checked too (`SignedHeadCheck`): a chain rewritten with
 * every hash recomputed no longer has the hash that was signed. `checked` counts the events up to
 * and including the first invalid one; `reason` says in a sentence why it is invalid.
 */
export function verifyChain(
  db: LedgerDb,
  signing: SigningSettings = { intervalMs: 0 },
): Promise<VerifyResult> {
  return withChainSnapshot(db, async (trx, head) => {
    const signedHeads = new SignedHeadCheck(signing, head);
    const gaps = new Map((await listCheckpoints(trx)).map((c) => [c.next_seq, c]));
    let expected = GENESIS_HASH;
    let checked = 0;
    let crossed = 0;
    let lastId: string | null = null;
    const result = (firstInvalidId: string | null, reason: string | null): VerifyResult => ({
      valid: reason === null,
      checked,
      firstInvalidId,
      reason,
      checkpoints: crossed,
      head,
      signatures: signedHeads.summary(),
    });
    /** Whether a checkpoint explains the chain jumping from `after` to `prev` at `seq`. */
    const bridged = (seq: number, prev: string) => {
      const gap = gaps.get(seq);
      const ok = gap !== undefined && gap.after_hash === expected && gap.prev_hash === prev;
      if (ok) crossed += 1;
      return ok;
    };

    for (let after = 0; ;) {
      const rows = await chainPage(trx, { after, upTo: head.seq, limit: PAGE });
      await signedHeads.load(trx, rows.at(-1)?.seq ?? 0);
      for (const row of rows) {
        checked += 1;
        const problem = contentProblem(row);
        if (problem) return result(row.id, `Event ${row.id} does not verify: ${problem}`);
        if (row.prev_hash !== expected && !bridged(row.seq, row.prev_hash))
          return result(
            row.id,
            `Event ${row.id} does not follow ${lastId === null ? 'the start of the chain' : `event ${lastId}`}: events between them were removed or changed`,
          );
        const mismatch = signedHeads.atEvent(row);
        if (mismatch) return result(row.id, mismatch);
        expected = row.hash;
        lastId = row.id;
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].seq;
    }
    if (expected !== head.hash && !bridged(head.seq + 1, head.hash))
      return result(
        null,
        `The chain ends ${lastId === null ? 'at its start' : `at event ${lastId}`} but its head is event number ${head.seq}: the last events were removed`,
      );
    await signedHeads.load(trx, Number.MAX_SAFE_INTEGER);
    return result(null, signedHeads.atEnd() ?? null);
  });
}
