import { findByIdOrName } from '@platform/core';
import { sql } from '@platform/db';
import type { LedgerDb, PolicyRow } from '../database.js';

export interface NewPolicy {
  id: string;
  name: string;
  retentionDays: number;
  scope: string;
  service: string | null;
  action: PolicyRow['action'];
}

/** Throws a unique violation when the name is taken (in any case). */
export function insertPolicy(db: LedgerDb, policy: NewPolicy): Promise<PolicyRow> {
  return db
    .insertInto('policies')
    .values({
      id: policy.id,
      name: policy.name,
      retention_days: policy.retentionDays,
      scope: policy.scope,
      service: policy.service,
      action: policy.action,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** By name, in any case. */
export function listPolicies(
  db: LedgerDb,
  filter: { service?: string; action?: PolicyRow['action'] },
  page: { limit: number; offset: number },
): Promise<PolicyRow[]> {
  let query = db.selectFrom('policies').selectAll();
  if (filter.service !== undefined) query = query.where('service', '=', filter.service);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('name')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Every policy, by name: what the retention job applies. */
export function allPolicies(db: LedgerDb): Promise<PolicyRow[]> {
  return db
    .selectFrom('policies')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('name')
    .execute();
}

/** The policy with that id, else that name in any case; NOT_FOUND `Retention policy not found: x`. */
export const findPolicy = (db: LedgerDb, idOrName: string) =>
  findByIdOrName<PolicyRow>(db, 'policies', idOrName, 'Retention policy');

export function deletePolicy(db: LedgerDb, id: string): Promise<PolicyRow | undefined> {
  return db.deleteFrom('policies').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Notes when a policy last ran and how many events it deleted or anonymized. */
export async function recordPolicyRun(
  db: LedgerDb,
  id: string,
  run: { at: Date; affected: number },
): Promise<void> {
  await db
    .updateTable('policies')
    .set({ last_applied_at: run.at, last_affected: run.affected })
    .where('id', '=', id)
    .execute();
}
