import { sql } from '@platform/db';
import { GENESIS_HASH } from './chain.js';
import { allPolicies, type LedgerDb, type PolicyRow } from './repository.js';

/** Events removed or rewritten per transaction, so appends never wait long. */
const BATCH = 2000;
const DAY_MS = 86_400_000;

export interface RetentionResult {
  policy: string;
  action: 'delete' | 'anonymize';
  cutoff: string;
  deleted: number;
  anonymized: number;
}

/** `all`, `service:<name>` or `action:<action>` (a trailing `*` matches a prefix). */
export type Scope = { kind: 'all' } | { kind: 'service' | 'action'; value: string };

export function parseScope(scope: string): Scope | undefined {
  if (scope === 'all') return { kind: 'all' };
  const match = /^(service|action):(.+)$/.exec(scope);
  return match ? { kind: match[1] as 'service' | 'action', value: match[2] } : undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The events a policy covers at `now`: older than its retention and within its scope. */
function covered(db: LedgerDb, policy: PolicyRow, now: Date) {
  const cutoff = new Date(now.getTime() - policy.retention_days * DAY_MS);
  let query = db.selectFrom('events').where('timestamp', '<', cutoff);
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
 * Applies one policy: deletes or anonymizes the events it covers, in batches. Anonymizing erases
 * actor, metadata and details and keeps the event's hashes, so the chain is untouched. Deleting
 * leaves gaps; each gap gets a checkpoint (see `recordGaps`) in the same transaction.
 */
export async function applyPolicy(
  db: LedgerDb,
  policy: PolicyRow,
  now = new Date(),
): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - policy.retention_days * DAY_MS);
  let affected = 0;
  for (;;) {
    const count =
      policy.action === 'anonymize'
        ? await anonymizeBatch(db, policy, now)
        : await deleteBatch(db, policy, now);
    affected += count;
    if (count < BATCH) break;
  }
  await db
    .updateTable('policies')
    .set({ last_applied_at: now, last_affected: affected })
    .where('id', '=', policy.id)
    .execute();
  return {
    policy: policy.name,
    action: policy.action,
    cutoff: cutoff.toISOString(),
    deleted: policy.action === 'delete' ? affected : 0,
    anonymized: policy.action === 'anonymize' ? affected : 0,
  };
}

async function anonymizeBatch(db: LedgerDb, policy: PolicyRow, now: Date): Promise<number> {
  const result = await db
    .updateTable('events')
    .set({
      actor: null,
      metadata: sql`'{}'::jsonb`,
      details: sql`'{}'::jsonb`,
      anonymized_at: now,
    })
    .where(
      'seq',
      'in',
      covered(db, policy, now).select('seq').where('anonymized_at', 'is', null).limit(BATCH),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function deleteBatch(db: LedgerDb, policy: PolicyRow, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The head is locked as appends lock it: a gap at the end of the chain names the next seq.
    const head = await trx
      .selectFrom('chain_head')
      .select(['seq', 'hash'])
      .where('id', '=', 1)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const gone = await trx
      .deleteFrom('events')
      .where('seq', 'in', covered(trx, policy, now).select('seq').orderBy('seq').limit(BATCH))
      .returning('seq')
      .execute();
    if (gone.length > 0)
      await recordGaps(
        trx,
        gone.map((row) => row.seq),
        head,
        policy.name,
      );
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
  deletedSeqs: number[],
  head: { seq: number; hash: string },
  policy: string,
): Promise<void> {
  const gone = sql<{
    value: string;
  }>`jsonb_array_elements_text(${JSON.stringify(deletedSeqs)}::jsonb)`;
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

/** Applies every policy, one after the other (the periodic job). */
export async function applyAll(db: LedgerDb, now = new Date()): Promise<RetentionResult[]> {
  const results: RetentionResult[] = [];
  for (const policy of await allPolicies(db)) results.push(await applyPolicy(db, policy, now));
  return results;
}
