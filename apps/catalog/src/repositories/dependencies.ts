import { sql } from '@platform/db';
import type { CatalogDb } from '../database.js';

/**
 * The dependencies (ids, in the order they were added) of each service given, in one query
 * whatever their number: what a list of services needs to avoid a query per service.
 */
export async function dependenciesOf(db: CatalogDb, serviceIds: string[]) {
  if (serviceIds.length === 0) return new Map<string, string[]>();
  const rows = await db
    .selectFrom('dependencies')
    .select(['service_id', sql<string[]>`array_agg(depends_on_id order by seq)`.as('ids')])
    .where('service_id', 'in', serviceIds)
    .groupBy('service_id')
    .execute();
  return new Map(rows.map((row) => [row.service_id, row.ids]));
}

export async function dependencyIds(db: CatalogDb, serviceId: string) {
  return (await dependenciesOf(db, [serviceId])).get(serviceId) ?? [];
}

/** Makes the service depend on the target; nothing changes when it does already. */
export async function addDependency(db: CatalogDb, serviceId: string, targetId: string) {
  await db
    .insertInto('dependencies')
    .values({ service_id: serviceId, depends_on_id: targetId })
    .onConflict((oc) => oc.columns(['service_id', 'depends_on_id']).doNothing())
    .execute();
}

/** false when the service did not depend on the target. */
export async function removeDependency(db: CatalogDb, serviceId: string, targetId: string) {
  const removed = await db
    .deleteFrom('dependencies')
    .where('service_id', '=', serviceId)
    .where('depends_on_id', '=', targetId)
    .executeTakeFirst();
  return removed.numDeletedRows > 0n;
}

/** Replaces the dependencies of a service by the targets, in their order (run in a transaction). */
export async function replaceDependencies(db: CatalogDb, serviceId: string, targetIds: string[]) {
  await db.deleteFrom('dependencies').where('service_id', '=', serviceId).execute();
  if (targetIds.length > 0)
    await db
      .insertInto('dependencies')
      .values(targetIds.map((targetId) => ({ service_id: serviceId, depends_on_id: targetId })))
      .execute();
}
