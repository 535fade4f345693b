import { notFound, type Static } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { CatalogDb, SystemsTable } from '../database.js';
import type { SystemListQuery } from '../schemas/systems.js';
import { byKind, dependentKind } from './groups.js';
import { labelSql, namedSql, selectNamed } from './named.js';

/** Systems with the name of their owner. */
const selectSystems = (db: CatalogDb) =>
  db
    .selectFrom('systems as g')
    .leftJoin('owners as l', 'l.id', 'g.owner_id')
    .leftJoin('domains as d', 'd.id', 'g.domain_id')
    .selectAll('g')
    .select([labelSql('l').as('owner'), labelSql('d').as('domain')]);

/** A system as stored, with the name of its owner. */
export type SystemRow = Awaited<ReturnType<typeof getSystem>>;

/** A page of systems by name, filtered; one query. */
export function listSystems(db: CatalogDb, filter: Static<typeof SystemListQuery>) {
  let query = selectSystems(db);
  if (filter.owner !== undefined) query = query.where(namedSql(filter.owner, 'l'));
  if (filter.domain !== undefined) query = query.where(namedSql(filter.domain, 'd'));
  if (filter.namespace !== undefined)
    query = query.where(sql`lower(g.namespace)`, '=', filter.namespace.toLowerCase());
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`g.tags @> ${jsonb([filter.tag])}::jsonb`);
  return query
    .orderBy(sql`lower(g.name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The system with its owner's name; NOT_FOUND when there is none (any more). */
export async function getSystem(db: CatalogDb, id: string) {
  const row = await selectSystems(db).where('g.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('System', id);
  return row;
}

/** The system with that id, else that name in any case; NOT_FOUND `System not found: x`. */
export async function findSystem(db: CatalogDb, idOrName: string): Promise<SystemRow> {
  const found = await selectNamed(db, 'systems', idOrName);
  const row = found && (await selectSystems(db).where('g.id', '=', found.id).executeTakeFirst());
  if (!row) throw notFound('System', idOrName);
  return row;
}

/** Inserts the system; a name taken (in any case) throws the unique violation. */
export async function insertSystem(db: CatalogDb, system: Insertable<SystemsTable>) {
  await db
    .insertInto('systems')
    .values({ ...system, tags: system.tags && jsonb(system.tags) })
    .execute();
}

/** Changes the columns given; a name taken throws the unique violation. */
export async function updateSystem(db: CatalogDb, id: string, changes: Updateable<SystemsTable>) {
  await db
    .updateTable('systems')
    .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Throws a foreign key violation while anything still points at it. */
export async function deleteSystem(db: CatalogDb, id: string) {
  await db.deleteFrom('systems').where('id', '=', id).execute();
}

/** The services (id and name, by name) of a system. */
export function systemServices(db: CatalogDb, id: string) {
  return db
    .selectFrom('services')
    .select(['id', 'name'])
    .where('system_id', '=', id)
    .orderBy(sql`lower(name)`)
    .execute();
}

/** What still points at a system (services, APIs), in one query: what a refused delete names. */
export async function systemDependents(db: CatalogDb, id: string) {
  const rows = await db
    .selectFrom('services')
    .select([dependentKind('services'), 'name'])
    .where('system_id', '=', id)
    .unionAll(
      db
        .selectFrom('apis')
        .select([dependentKind('APIs'), 'name'])
        .where('system_id', '=', id),
    )
    .execute();
  return byKind(rows, ['services', 'APIs']);
}
