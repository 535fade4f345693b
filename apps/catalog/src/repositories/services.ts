import { notFound, type Static } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { CatalogDb, ServicesTable } from '../database.js';
import type { ServiceListQuery } from '../schemas/services.js';
import { replaceDependencies } from './dependencies.js';
import { findNamed, labelSql, namedIds, namedSql } from './named.js';
import { linksOf, replaceApis } from './relations.js';

/** A service with what the API shows of its links: system and owner by name, the others as ids. */
export type ServiceWithLinks = Awaited<ReturnType<typeof listServices>>[number];

/** Links replaced by a write; undefined leaves one as it is. */
export interface ServiceLinkChanges {
  dependencies?: string[];
  providesApis?: string[];
  consumesApis?: string[];
}

function selectWithNames(db: CatalogDb) {
  return db
    .selectFrom('services as s')
    .leftJoin('systems as sy', 'sy.id', 's.system_id')
    .leftJoin('owners as o', 'o.id', 's.owner_id')
    .selectAll('s')
    .select([labelSql('sy').as('system'), labelSql('o').as('owner')]);
}

/** Adds the dependencies and APIs of all the services in one more query (never one per service). */
async function withLinks<Row extends { id: string }>(db: CatalogDb, rows: Row[]) {
  const links = await linksOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, ...links.get(row.id)! }));
}

/** A page of services by name: two queries, however long the page. */
export async function listServices(db: CatalogDb, filter: Static<typeof ServiceListQuery>) {
  let query = selectWithNames(db);
  const sameText = (column: string, value: string) =>
    [sql`lower(${sql.ref(column)})`, '=', value.toLowerCase()] as const;
  if (filter.system !== undefined) query = query.where(namedSql(filter.system, 'sy'));
  if (filter.owner !== undefined) query = query.where(namedSql(filter.owner, 'o'));
  if (filter.namespace !== undefined)
    query = query.where(...sameText('s.namespace', filter.namespace));
  if (filter.type !== undefined) query = query.where(...sameText('s.type', filter.type));
  if (filter.lifecycle !== undefined)
    query = query.where(...sameText('s.lifecycle', filter.lifecycle));
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`s.tags @> ${jsonb([filter.tag])}::jsonb`);
  const rows = await query
    .orderBy(sql`lower(s.name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withLinks(db, rows);
}

/** The service with its links; NOT_FOUND when there is none (any more). */
export async function getService(db: CatalogDb, id: string) {
  const row = await selectWithNames(db).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Service', id);
  return (await withLinks(db, [row]))[0];
}

/** The service with that id, else that name in any case; NOT_FOUND `Service not found: x`. */
export const findService = (db: CatalogDb, idOrName: string) =>
  findNamed(db, 'services', idOrName, 'Service');

/** The ids of the services named (ids or names), in one query; NOT_FOUND for an unknown one. */
export async function findServiceIds(db: CatalogDb, refs: readonly string[]): Promise<string[]> {
  const ids = await namedIds(db, 'services', refs);
  const missing = ids.indexOf(undefined);
  if (missing >= 0) throw notFound('Service', refs[missing]);
  return ids as string[];
}

/** Replaces the links given (in the caller's transaction). */
async function replaceLinks(db: CatalogDb, id: string, links: ServiceLinkChanges) {
  if (links.dependencies !== undefined) await replaceDependencies(db, id, links.dependencies);
  if (links.providesApis !== undefined) await replaceApis(db, id, 'provides', links.providesApis);
  if (links.consumesApis !== undefined) await replaceApis(db, id, 'consumes', links.consumesApis);
}

const jsonColumns = <T extends Updateable<ServicesTable>>(row: T) => ({
  ...row,
  tags: row.tags && jsonb(row.tags),
  links: row.links && jsonb(row.links),
  annotations: row.annotations && jsonb(row.annotations),
});

/** Stores the service and its APIs in one transaction; a name taken throws the unique violation. */
export async function insertService(
  db: CatalogDb,
  service: Insertable<ServicesTable>,
  links: ServiceLinkChanges = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values(jsonColumns(service) as Insertable<ServicesTable>)
      .execute();
    await replaceLinks(trx, service.id, links);
  });
}

/**
 * Changes the fields given and replaces the links given, in one transaction. A name taken throws
 * the unique violation.
 */
export async function updateService(
  db: CatalogDb,
  id: string,
  changes: Updateable<ServicesTable>,
  links: ServiceLinkChanges = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('services')
      .set({ ...jsonColumns(changes), updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    await replaceLinks(trx, id, links);
  });
}

/** Removes the service; the dependencies on it and its own go with it (ON DELETE CASCADE). */
export async function deleteService(db: CatalogDb, id: string): Promise<void> {
  await db.deleteFrom('services').where('id', '=', id).execute();
}
