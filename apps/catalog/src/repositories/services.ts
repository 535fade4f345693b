import { findByIdOrName, notFound, type Static } from '@platform/core';
import { idsByIdOrName, jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { CatalogDb, ServicesTable } from '../database.js';
import type { ServiceListQuery } from '../schemas/services.js';
import { dependenciesOf, replaceDependencies } from './dependencies.js';

/** A service with what the API shows of its links: system and owner by name, dependencies as ids. */
export type ServiceWithLinks = Awaited<ReturnType<typeof listServices>>[number];

function selectWithNames(db: CatalogDb) {
  return db
    .selectFrom('services as s')
    .leftJoin('systems as sy', 'sy.id', 's.system_id')
    .leftJoin('owners as o', 'o.id', 's.owner_id')
    .selectAll('s')
    .select(['sy.name as system', 'o.name as owner']);
}

/** Adds the dependencies of all the services in one more query (never one per service). */
async function withDependencies<Row extends { id: string }>(db: CatalogDb, rows: Row[]) {
  const ids = rows.map((row) => row.id);
  const dependencies = await dependenciesOf(db, ids);
  return rows.map((row) => ({ ...row, dependencies: dependencies.get(row.id) ?? [] }));
}

/** A page of services by name: two queries, however long the page. */
export async function listServices(db: CatalogDb, filter: Static<typeof ServiceListQuery>) {
  let query = selectWithNames(db);
  if (filter.system !== undefined)
    query = query.where(sql`lower(sy.name)`, '=', filter.system.toLowerCase());
  if (filter.owner !== undefined)
    query = query.where(sql`lower(o.name)`, '=', filter.owner.toLowerCase());
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`s.tags @> ${jsonb([filter.tag])}::jsonb`);
  const rows = await query
    .orderBy(sql`lower(s.name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withDependencies(db, rows);
}

/** The service with its links; NOT_FOUND when there is none (any more). */
export async function getService(db: CatalogDb, id: string) {
  const row = await selectWithNames(db).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Service', id);
  return (await withDependencies(db, [row]))[0];
}

/** The service with that id, else that name in any case; NOT_FOUND `Service not found: x`. */
export const findService = (db: CatalogDb, idOrName: string) =>
  findByIdOrName(db, 'services', idOrName, 'Service');

/** The ids of the services named (ids or names), in one query; NOT_FOUND for an unknown one. */
export async function findServiceIds(db: CatalogDb, refs: readonly string[]): Promise<string[]> {
  const ids = await idsByIdOrName(db, 'services', refs);
  const missing = ids.indexOf(undefined);
  if (missing >= 0) throw notFound('Service', refs[missing]);
  return ids as string[];
}

/** The stored service; a name taken (in any case) throws the unique violation. */
export function insertService(db: CatalogDb, service: Insertable<ServicesTable>) {
  return db
    .insertInto('services')
    .values({ ...service, tags: jsonb(service.tags) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Changes the fields given and, when `dependencies` is given, replaces the dependencies, in one
 * transaction. A name taken throws the unique violation.
 */
export async function updateService(
  db: CatalogDb,
  id: string,
  changes: Updateable<ServicesTable>,
  dependencies?: string[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('services')
      .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    if (dependencies !== undefined) await replaceDependencies(trx, id, dependencies);
  });
}

/** Removes the service; the dependencies on it and its own go with it (ON DELETE CASCADE). */
export async function deleteService(db: CatalogDb, id: string): Promise<void> {
  await db.deleteFrom('services').where('id', '=', id).execute();
}
