import type { LedgerDb, PolicyRow } from '../database.js';
import { listPolicies, recordPolicyRun } from '../repositories/policies.js';
import { anonymizeCovered, deleteCovered } from '../repositories/retention.js';
import type { ApplyResult } from '../schemas/policies.js';

/** Events removed or rewritten per transaction, so appends never wait long. */
const BATCH = 2000;
const DAY_MS = 86_400_000;

/**
 * Applies one policy: deletes or anonymizes the events it covers (older than its retention and
 * within its scope), in batches. Anonymizing erases actor, metadata and details and keeps the
 * event's hashes, so the chain is untouched. Deleting leaves gaps; each gap gets a checkpoint in
 * the same transaction as the deletion.
 */
export async function applyPolicy(
  db: LedgerDb,
  policy: PolicyRow,
  now = new Date(),
): Promise<ApplyResult> {
  const before = new Date(now.getTime() - policy.retention_days * DAY_MS);
  let affected = 0;
  for (;;) {
    const count =
      policy.action === 'anonymize'
        ? await anonymizeCovered(db, policy, before, now, BATCH)
        : await deleteCovered(db, policy, before, BATCH);
    affected += count;
    if (count < BATCH) break;
  }
  await recordPolicyRun(db, policy.id, { at: now, affected });
  return {
    policy: policy.name,
    action: policy.action,
    cutoff: before.toISOString(),
    deleted: policy.action === 'delete' ? affected : 0,
    anonymized: policy.action === 'anonymize' ? affected : 0,
  };
}

/** Applies every policy, one after the other (the periodic job). */
export async function applyAll(db: LedgerDb, now = new Date()): Promise<ApplyResult[]> {
  const results: ApplyResult[] = [];
  for (const policy of await listPolicies(db)) results.push(await applyPolicy(db, policy, now));
  return results;
}
