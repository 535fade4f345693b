import { findByIdOrName, notFound } from '@platform/core';
import { sql, type Insertable } from '@platform/db';
import type { LedgerDb, PoliciesTable, PolicyRow } from '../database.js';

/** Throws a unique violation when the name is taken (in any case). */
export function insertPolicy(db: LedgerDb, policy: Insertable<PoliciesTable>): Promise<PolicyRow> {
  return db.insertInto('policies').values(policy).returningAll().executeTakeFirstOrThrow();
}

/** Every policy (of that service, with that action), by name in any case. */
export function listPolicies(
  db: LedgerDb,
  filter: Partial<Pick<PolicyRow, 'service' | 'action'>> = {},
  page?: { limit: number; offset: number },
): Promise<PolicyRow[]> {
  const query = db
    .selectFrom('policies')
    .selectAll()
    .where((eb) => eb.and(filter))
    .orderBy(sql`lower(name)`)
    .orderBy('name');
  return (page ? query.limit(page.limit).offset(page.offset) : query).execute();
}

/** The policy with that id, else that name in any case; NOT_FOUND `Retention policy not found: x`. */
export const findPolicy = (db: LedgerDb, idOrName: string) =>
  findByIdOrName(db, 'policies', idOrName, 'Retention policy');

/** Deletes the policy with that id or name; NOT_FOUND too when another request deleted it meanwhile. */
export async function deletePolicy(db: LedgerDb, idOrName: string): Promise<PolicyRow> {
  const { id } = await findPolicy(db, idOrName);
  return db
    .deleteFrom('policies')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow(() => notFound('Retention policy', idOrName));
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
