import { sql } from '@platform/db';
import { GENESIS_HASH } from '../domain/chain.js';
import type { ChainHead, LedgerDb, PolicyRow } from '../database.js';
import { parseScope } from '../schemas/policies.js';
import { withChainHeadLocked } from './events.js';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The events `policy` covers: older than `before` and within its service and scope. */
function covered(db: LedgerDb, policy: PolicyRow, before: Date) {
  let query = db.selectFrom('events').where('timestamp', '<', before);
  if (policy.service !== null) query = query.where('service', '=', policy.service);
  const scope = parseScope(policy.scope);
  if (scope?.kind === 'service') query = query.where('service', '=', scope.value);
  if (scope?.kind === 'action')
    query = scope.value.endsWith('*')
      ? query.where('action', 'like', `${escapeLike(scope.value.slice(0, -1))}%`)
      : query.where('action', '=', scope.value);
  return query;
}

/**
 * Erases actor, metadata and details of up to `limit` covered events not anonymized yet, and
 * marks them anonymized at `at`. Hashes stay: the chain is untouched. Answers how many.
 */
export async function anonymizeCovered(
  db: LedgerDb,
  policy: PolicyRow,
  before: Date,
  at: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .updateTable('events')
    .set({ actor: null, metadata: sql`'{}'::jsonb`, details: sql`'{}'::jsonb`, anonymized_at: at })
    .where(
      'seq',
      'in',
      covered(db, policy, before).select('seq').where('anonymized_at', 'is', null).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes up to `limit` covered events, oldest in the chain first, and records the gaps they
 * leave as checkpoints in the same transaction. Answers how many.
 */
export function deleteCovered(
  db: LedgerDb,
  policy: PolicyRow,
  before: Date,
  limit: number,
): Promise<number> {
  // The head is locked as appends lock it: a gap at the end of the chain names the next seq.
  return withChainHeadLocked(db, async (trx, head) => {
    const gone = await trx
      .deleteFrom('events')
      .where('seq', 'in', covered(trx, policy, before).select('seq').orderBy('seq').limit(limit))
      .returning('seq')
      .execute();
    if (gone.length > 0) await recordGaps(trx, gone, head, policy.name);
    return gone.length;
  });
}

/**
 * Every run of deleted events ends before a kept event (or at the end of the chain). For each,
 * the checkpoint at that next seq records the hash the chain had before the gap (`after_hash`:
 * the last kept event's, or the genesis) and the hash the next event follows (`prev_hash`). An
 * existing checkpoint there (an older gap the new one joins) gets the new `after_hash`.
 */
async function recordGaps(
  db: LedgerDb,
  deleted: { seq: number }[],
  head: ChainHead,
  policy: string,
): Promise<void> {
  const seqs = JSON.stringify(deleted.map((row) => row.seq));
  const gone = sql<{ value: string }>`jsonb_array_elements_text(${seqs}::jsonb)`;
  // The next kept event after each deleted one; the end of the chain is head.seq + 1.
  const nexts = db
    .selectFrom(gone.as('gone'))
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('events')
            .select((e) => e.fn.min('seq').as('seq'))
            .where('seq', '>', sql<number>`gone.value::bigint`),
          sql<number>`${head.seq + 1}::bigint`,
        )
        .as('next_seq'),
    )
    .distinct();
  const checkpoints = db
    .selectFrom(nexts.as('n'))
    .select((eb) => [
      'n.next_seq',
      eb.fn
        .coalesce(
          eb
            .selectFrom('events as kept')
            .select('kept.hash')
            .whereRef('kept.seq', '<', 'n.next_seq')
            .orderBy('kept.seq', 'desc')
            .limit(1),
          sql<string>`${GENESIS_HASH}::text`,
        )
        .as('after_hash'),
      eb.fn
        .coalesce(
          eb
            .selectFrom('events as next')
            .select('next.prev_hash')
            .whereRef('next.seq', '=', 'n.next_seq'),
          sql<string>`${head.hash}::text`,
        )
        .as('prev_hash'),
      sql<string>`${policy}::text`.as('policy'),
    ]);
  await db
    .insertInto('checkpoints')
    .columns(['next_seq', 'after_hash', 'prev_hash', 'policy'])
    .expression(checkpoints)
    .onConflict((oc) =>
      oc.column('next_seq').doUpdateSet((eb) => ({
        after_hash: eb.ref('excluded.after_hash'),
        policy: eb.ref('excluded.policy'),
        updated_at: sql`now()`,
      })),
    )
    .execute();
  // Checkpoints of events that are now gone themselves were folded into a later one.
  await db
    .deleteFrom('checkpoints')
    .where('next_seq', '<=', head.seq)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('events').select('seq').whereRef('events.seq', '=', 'checkpoints.next_seq'),
        ),
      ),
    )
    .execute();
}
