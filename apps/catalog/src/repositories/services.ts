import { findByIdOrName } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { CatalogDb, ServiceRow } from '../database.js';
import { dependenciesOf, replaceDependencies } from './dependencies.js';

/** A service with what the API shows of its links: system and owner by name, dependencies as ids. */
export interface ServiceWithLinks extends ServiceRow {
  system: string | null;
  owner: string | null;
  dependencies: string[];
}

export interface ServiceFilter {
  /** Name of its system, any case. */
  system?: string;
  /** Name of its owner, any case. */
  owner?: string;
  tag?: string;
}

export interface NewService {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  systemId: string | null;
  ownerId: string | null;
}

/** The fields to change; those left undefined keep their value, null clears. */
export type ServiceChanges = Partial<Omit<NewService, 'id'>>;

function selectWithNames(db: CatalogDb) {
  return db
    .selectFrom('services as s')
    .leftJoin('systems as sy', 'sy.id', 's.system_id')
    .leftJoin('owners as o', 'o.id', 's.owner_id')
    .selectAll('s')
    .select(['sy.name as system', 'o.name as owner']);
}

/** Adds the dependencies of all the services in one more query (never one per service). */
async function withDependencies(
  db: CatalogDb,
  rows: Array<Omit<ServiceWithLinks, 'dependencies'>>,
): Promise<ServiceWithLinks[]> {
  const dependencies = await dependenciesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, dependencies: dependencies.get(row.id) ?? [] }));
}

/** A page of services by name: two queries, however long the page. */
export async function listServices(
  db: CatalogDb,
  filter: ServiceFilter,
  page: { limit: number; offset: number },
): Promise<ServiceWithLinks[]> {
  let query = selectWithNames(db);
  if (filter.system !== undefined)
    query = query.where(sql`lower(sy.name)`, '=', filter.system.toLowerCase());
  if (filter.owner !== undefined)
    query = query.where(sql`lower(o.name)`, '=', filter.owner.toLowerCase());
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`s.tags @> ${jsonb([filter.tag])}::jsonb`);
  const rows = await query
    .orderBy(sql`lower(s.name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return withDependencies(db, rows);
}

export async function getService(db: CatalogDb, id: string): Promise<ServiceWithLinks | undefined> {
  const row = await selectWithNames(db).where('s.id', '=', id).executeTakeFirst();
  return row && (await withDependencies(db, [row]))[0];
}

/** The service with that id, else that name in any case; NOT_FOUND `Service not found: x`. */
export const findService = (db: CatalogDb, idOrName: string) =>
  findByIdOrName<ServiceRow>(db, 'services', idOrName, 'Service');

/** The stored service, or undefined when its name is taken (in any case). */
export function insertService(db: CatalogDb, service: NewService): Promise<ServiceRow | undefined> {
  return db
    .insertInto('services')
    .values({
      id: service.id,
      name: service.name,
      description: service.description,
      tags: jsonb(service.tags),
      system_id: service.systemId,
      owner_id: service.ownerId,
    })
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Changes the fields given and, when `dependencies` is given, replaces the dependencies, in one
 * transaction. A name taken throws the unique violation.
 */
export async function updateService(
  db: CatalogDb,
  id: string,
  changes: ServiceChanges,
  dependencies?: readonly string[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('services')
      .set({
        name: changes.name,
        description: changes.description,
        tags: changes.tags && jsonb(changes.tags),
        system_id: changes.systemId,
        owner_id: changes.ownerId,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
    if (dependencies !== undefined) await replaceDependencies(trx, id, dependencies);
  });
}

/** Removes the service; the dependencies on it and its own go with it (ON DELETE CASCADE). */
export async function deleteService(db: CatalogDb, id: string): Promise<void> {
  await db.deleteFrom('services').where('id', '=', id).execute();
}

/** The services (id and name, by name) of a system or an owner. */
export function servicesLinkedTo(db: CatalogDb, link: 'system_id' | 'owner_id', id: string) {
  return db
    .selectFrom('services')
    .select(['id', 'name'])
    .where(link, '=', id)
    .orderBy(sql`lower(name)`)
    .execute();
}
