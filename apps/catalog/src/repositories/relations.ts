import { sql } from '@platform/db';
import type { CatalogDb } from '../database.js';

export type ApiRelation = 'provides' | 'consumes';

/** What a service shows of its links to other services and to APIs: ids, in their order. */
export interface ServiceLinks {
  dependencies: string[];
  providesApis: string[];
  consumesApis: string[];
}

const FIELD = {
  depends: 'dependencies',
  provides: 'providesApis',
  consumes: 'consumesApis',
} as const;

/**
 * The dependencies and the APIs provided and consumed of each service given, in one query
 * whatever their number: what a list of services needs to avoid a query per service.
 */
export async function linksOf(db: CatalogDb, serviceIds: string[]) {
  const links = new Map<string, ServiceLinks>(
    serviceIds.map((id) => [id, { dependencies: [], providesApis: [], consumesApis: [] }]),
  );
  if (serviceIds.length === 0) return links;
  const rows = await db
    .selectFrom('dependencies')
    .select([
      'service_id',
      sql<string>`'depends'`.as('relation'),
      sql<string[]>`array_agg(depends_on_id order by seq)`.as('ids'),
    ])
    .where('service_id', 'in', serviceIds)
    .groupBy('service_id')
    .unionAll(
      db
        .selectFrom('service_apis')
        .select(['service_id', 'relation', sql<string[]>`array_agg(api_id order by seq)`.as('ids')])
        .where('service_id', 'in', serviceIds)
        .groupBy(['service_id', 'relation']),
    )
    .execute();
  for (const row of rows)
    links.get(row.service_id)![FIELD[row.relation as keyof typeof FIELD]] = row.ids;
  return links;
}

/** Replaces the APIs a service provides or consumes by these, in their order (in a transaction). */
export async function replaceApis(
  db: CatalogDb,
  serviceId: string,
  relation: ApiRelation,
  apiIds: string[],
) {
  await db
    .deleteFrom('service_apis')
    .where('service_id', '=', serviceId)
    .where('relation', '=', relation)
    .execute();
  if (apiIds.length > 0)
    await db
      .insertInto('service_apis')
      .values(apiIds.map((api_id) => ({ service_id: serviceId, relation, api_id })))
      .execute();
}

/** The services providing and consuming each API given (ids, by name), in one query. */
export async function servicesUsing(db: CatalogDb, apiIds: string[]) {
  const using = new Map<string, { providedBy: string[]; consumedBy: string[] }>(
    apiIds.map((id) => [id, { providedBy: [], consumedBy: [] }]),
  );
  if (apiIds.length === 0) return using;
  const rows = await db
    .selectFrom('service_apis as sa')
    .innerJoin('services as s', 's.id', 'sa.service_id')
    .select([
      'sa.api_id',
      'sa.relation',
      sql<string[]>`array_agg(s.id order by lower(s.name), s.id)`.as('ids'),
    ])
    .where('sa.api_id', 'in', apiIds)
    .groupBy(['sa.api_id', 'sa.relation'])
    .execute();
  for (const row of rows)
    using.get(row.api_id)![row.relation === 'provides' ? 'providedBy' : 'consumedBy'] = row.ids;
  return using;
}

/** The names of the services providing and consuming an API, by name: what a refused delete names. */
export async function serviceNamesUsing(db: CatalogDb, apiId: string) {
  const rows = await db
    .selectFrom('service_apis as sa')
    .innerJoin('services as s', 's.id', 'sa.service_id')
    .select(['sa.relation', 's.name'])
    .where('sa.api_id', '=', apiId)
    .orderBy(sql`lower(s.name)`)
    .orderBy('s.id')
    .execute();
  const named = (relation: ApiRelation) =>
    rows.filter((row) => row.relation === relation).map((row) => row.name);
  return { providing: named('provides'), consuming: named('consumes') };
}
