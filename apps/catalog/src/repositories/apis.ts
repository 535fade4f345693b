import { notFound, type Static } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { ApisTable, CatalogDb } from '../database.js';
import type { ApiListQuery } from '../schemas/apis.js';
import { findNamed, labelSql, namedIds, namedSql } from './named.js';
import { servicesUsing } from './relations.js';

/** An API with its owner and system by name, without its definition (lists leave it out). */
function selectApis(db: CatalogDb) {
  return db
    .selectFrom('apis as a')
    .leftJoin('owners as o', 'o.id', 'a.owner_id')
    .leftJoin('systems as sy', 'sy.id', 'a.system_id')
    .select([
      'a.id',
      'a.namespace',
      'a.name',
      'a.type',
      'a.description',
      'a.lifecycle',
      'a.tags',
      'a.created_by',
      'a.team',
      'a.created_at',
      'a.updated_at',
      labelSql('o').as('owner'),
      labelSql('sy').as('system'),
    ]);
}

/** Adds the services providing and consuming each API, in one more query. */
async function withServices<Row extends { id: string }>(db: CatalogDb, rows: Row[]) {
  const using = await servicesUsing(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, ...using.get(row.id)! }));
}

/** A page of APIs by name: two queries, however long the page. */
export async function listApis(db: CatalogDb, filter: Static<typeof ApiListQuery>) {
  let query = selectApis(db);
  if (filter.type !== undefined) query = query.where('a.type', '=', filter.type);
  if (filter.lifecycle !== undefined)
    query = query.where(sql`lower(a.lifecycle)`, '=', filter.lifecycle.toLowerCase());
  if (filter.owner !== undefined) query = query.where(namedSql(filter.owner, 'o'));
  if (filter.system !== undefined) query = query.where(namedSql(filter.system, 'sy'));
  if (filter.namespace !== undefined)
    query = query.where(sql`lower(a.namespace)`, '=', filter.namespace.toLowerCase());
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`a.tags @> ${jsonb([filter.tag])}::jsonb`);
  const rows = await query
    .orderBy(sql`lower(a.name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withServices(db, rows);
}

/** The API with its definition and links; NOT_FOUND when there is none (any more). */
export async function getApi(db: CatalogDb, id: string) {
  const row = await selectApis(db).select('a.definition').where('a.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('API', id);
  return (await withServices(db, [row]))[0];
}

/** The API with that id, else that name in any case; NOT_FOUND `API not found: x`. */
export const findApi = (db: CatalogDb, idOrName: string) => findNamed(db, 'apis', idOrName, 'API');

/** The ids of the APIs named (ids or names), in one query; NOT_FOUND for an unknown one. */
export async function findApiIds(db: CatalogDb, refs: readonly string[]): Promise<string[]> {
  const ids = await namedIds(db, 'apis', refs);
  const missing = ids.indexOf(undefined);
  if (missing >= 0) throw notFound('API', refs[missing]);
  return ids as string[];
}

/** Stores the API; a name taken (in any case) throws the unique violation. */
export async function insertApi(db: CatalogDb, api: Insertable<ApisTable>) {
  await db
    .insertInto('apis')
    .values({ ...api, tags: jsonb(api.tags) })
    .execute();
}

/** Changes the fields given; a name taken throws the unique violation. */
export async function updateApi(db: CatalogDb, id: string, changes: Updateable<ApisTable>) {
  await db
    .updateTable('apis')
    .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Removes the API; services providing or consuming it lose it (ON DELETE CASCADE). */
/** Removes the API unless a service provides or consumes it; false when it is still used. */
export async function deleteUnusedApi(db: CatalogDb, id: string) {
  const { numDeletedRows } = await db
    .deleteFrom('apis')
    .where('id', '=', id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('service_apis').select('api_id').where('api_id', '=', id))),
    )
    .executeTakeFirst();
  return numDeletedRows > 0n;
}
