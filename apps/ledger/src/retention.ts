import type { LedgerDb, PolicyRow } from './database.js';
import { allPolicies, recordPolicyRun } from './repositories/policies.js';
import { anonymizeCovered, deleteCovered, type Coverage } from './repositories/retention.js';

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

/** The events a policy covers at `now`: older than its retention and within its scope. */
function coverageOf(policy: PolicyRow, now: Date): Coverage {
  const coverage: Coverage = {
    before: new Date(now.getTime() - policy.retention_days * DAY_MS),
    services: policy.service === null ? [] : [policy.service],
  };
  const scope = parseScope(policy.scope);
  if (scope?.kind === 'service') coverage.services.push(scope.value);
  if (scope?.kind === 'action')
    coverage.action = scope.value.endsWith('*')
      ? { startsWith: scope.value.slice(0, -1) }
      : { equals: scope.value };
  return coverage;
}

/**
 * Applies one policy: deletes or anonymizes the events it covers, in batches. Anonymizing erases
 * actor, metadata and details and keeps the event's hashes, so the chain is untouched. Deleting
 * leaves gaps; each gap gets a checkpoint in the same transaction as the deletion.
 */
export async function applyPolicy(
  db: LedgerDb,
  policy: PolicyRow,
  now = new Date(),
): Promise<RetentionResult> {
  const coverage = coverageOf(policy, now);
  let affected = 0;
  for (;;) {
    const count =
      policy.action === 'anonymize'
        ? await anonymizeCovered(db, coverage, now, BATCH)
        : await deleteCovered(db, coverage, policy.name, BATCH);
    affected += count;
    if (count < BATCH) break;
  }
  await recordPolicyRun(db, policy.id, { at: now, affected });
  return {
    policy: policy.name,
    action: policy.action,
    cutoff: coverage.before.toISOString(),
    deleted: policy.action === 'delete' ? affected : 0,
    anonymized: policy.action === 'anonymize' ? affected : 0,
  };
}

/** Applies every policy, one after the other (the periodic job). */
export async function applyAll(db: LedgerDb, now = new Date()): Promise<RetentionResult[]> {
  const results: RetentionResult[] = [];
  for (const policy of await allPolicies(db)) results.push(await applyPolicy(db, policy, now));
  return results;
}
