import { sql, type CompiledQuery } from '@platform/db';
import { SCHEMA, type CatalogDb } from '../database.js';
import type { GraphRows } from '../domain/graph/walk.js';

/**
 * The statement reading the version of what the graph is made of, compiled once by the graph's
 * cache (building it cost ~70 µs a walk).
 */
export const graphVersionQuery = (db: CatalogDb): CompiledQuery<{ version: string }> =>
  db
    .selectFrom('graph_version')
    .select(sql<string>`version::text`.as('version'))
    .compile();

/** The version of what the graph is made of: triggers bump it with every write (migrations). */
export async function graphVersion(db: CatalogDb, query: CompiledQuery<{ version: string }>) {
  const { rows } = await db.executeQuery(query);
  if (!rows[0]) throw new Error('catalog.graph_version has no row');
  return rows[0].version;
}

/** JSON arrays of what a statement loads: null when there are no rows. */
type Lists<T> = { [K in keyof T]: T[K][] | null };

/** Records in no particular order, each with its rank in the order of ids and of names. */
type Ranked = Lists<{ ids: string; names: string; idRanks: number; nameRanks: number }>;

interface Loaded {
  version: string;
  services: Ranked;
  apis: Ranked;
  edges: Lists<{ froms: string; tos: string }>;
  links: Lists<{ services: string; apis: string; provides: boolean }>;
}

/** Records in their ids' order (ranks count from 1). */
function byId(records: Ranked) {
  const [ids, names, idRanks, nameRanks] = [
    records.ids ?? [],
    records.names ?? [],
    records.idRanks ?? [],
    records.nameRanks ?? [],
  ];
  const sorted = { ids: [...ids], names: [...names], nameRanks: [...nameRanks] };
  idRanks.forEach((rank, k) => {
    sorted.ids[rank - 1] = ids[k];
    sorted.names[rank - 1] = names[k];
    sorted.nameRanks[rank - 1] = nameRanks[k];
  });
  return sorted;
}

/**
 * Everything the walk needs, in one statement (so from one snapshot) together with the version
 * it is at. Lists as JSON arrays, in no particular order (sorting each list in the database, or
 * arrays, cost twice as much): each service and API with its ranks in the order of ids and of
 * `lower(name), id`, so that every order the walk gives is the database's collation's.
 */
export async function loadGraph(db: CatalogDb): Promise<{ version: string; rows: GraphRows }> {
  const table = (name: string) => sql.table(`${SCHEMA}.${name}`);
  const ranked = (name: string) => sql`(
    select json_build_object('ids', json_agg(id), 'names', json_agg(name),
      'idRanks', json_agg(id_rank), 'nameRanks', json_agg(name_rank))
    from (
      select id, name, row_number() over (order by id) as id_rank,
        row_number() over (order by lower(name), id) as name_rank
      from ${table(name)}
    ) as ranked
  )`;
  const { rows } = await sql<Loaded>`
    select
      (select version::text from ${table('graph_version')}) as version,
      ${ranked('services')} as services,
      ${ranked('apis')} as apis,
      (select json_build_object('froms', json_agg(service_id), 'tos', json_agg(depends_on_id))
        from ${table('dependencies')}) as edges,
      (select json_build_object('services', json_agg(service_id), 'apis', json_agg(api_id),
          'provides', json_agg(relation = 'provides'))
        from ${table('service_apis')}) as links
  `.execute(db);
  const { version, services, apis, edges, links } = rows[0];
  const apiRows = byId(apis);
  const graph: GraphRows = {
    ...byId(services),
    froms: edges.froms ?? [],
    tos: edges.tos ?? [],
    apiIds: apiRows.ids,
    apiNames: apiRows.names,
    apiNameRanks: apiRows.nameRanks,
    linkServices: links.services ?? [],
    linkApis: links.apis ?? [],
    linkProvides: links.provides ?? [],
  };
  return { version, rows: graph };
}
