import { onceFor } from '@platform/core';
import { sql, type CompiledQuery } from '@platform/db';
import { SCHEMA, type CatalogDb } from '../database.js';
import { CatalogGraph } from '../graph/walk.js';

/** The graph in memory of one database, and the version of the graph_version row it was read at. */
interface Cached {
  version: string;
  graph: Promise<CatalogGraph>;
}
const cache = new WeakMap<CatalogDb, Cached>();

/** The statement reading the version, built once per database (building it cost ~70 µs a walk). */
const versionQueries = new WeakMap<CatalogDb, CompiledQuery<{ version: string }>>();

/** The version of what the graph is made of: triggers bump it with every write (migrations). */
async function currentVersion(db: CatalogDb) {
  const query = onceFor(versionQueries, db, () =>
    db
      .selectFrom('graph_version')
      .select(sql<string>`version::text`.as('version'))
      .compile(),
  );
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
async function loadGraph(db: CatalogDb) {
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
  const graph = new CatalogGraph({
    ...byId(services),
    froms: edges.froms ?? [],
    tos: edges.tos ?? [],
    apiIds: apiRows.ids,
    apiNames: apiRows.names,
    apiNameRanks: apiRows.nameRanks,
    linkServices: links.services ?? [],
    linkApis: links.apis ?? [],
    linkProvides: links.provides ?? [],
  });
  return { version, graph };
}

/**
 * The graph as of now: the one in memory when the version has not moved since it was loaded,
 * else loaded again (once, however many walks are waiting for it). Costs one small query when
 * nothing changed. Any process writing to the database moves the version (a trigger, in the
 * writer's transaction), so a walk never answers from a graph older than its own read.
 */
export async function currentGraph(db: CatalogDb): Promise<CatalogGraph> {
  const version = await currentVersion(db);
  const cached = cache.get(db);
  if (cached?.version === version) return cached.graph;
  const entry = { version } as Cached;
  entry.graph = loadGraph(db).then(
    (loaded) => {
      // Loaded at this version or a later one (a write committed meanwhile): said as it is.
      entry.version = loaded.version;
      return loaded.graph;
    },
    (error: unknown) => {
      if (cache.get(db) === entry) cache.delete(db);
      throw error;
    },
  );
  cache.set(db, entry);
  return entry.graph;
}
