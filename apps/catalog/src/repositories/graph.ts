import { sql } from '@platform/db';
import { SCHEMA, type CatalogDb } from '../database.js';
import type { Direction } from '../schemas/dependencies.js';

/**
 * The services reachable from `rootId`, each at its shortest distance, in one recursive query.
 * Each step of the recursion carries the whole frontier (the services first reached at that
 * depth) and everything visited so far, so every service is expanded once: cycles end the walk,
 * and a service reached by many paths costs no more than one reached by one (a path-by-path
 * recursion would grow with the number of paths). `down` follows what a service depends on, `up`
 * what depends on it. Edges are the dependencies among the services found, as `from` depends on
 * `to`, leaving out those of services at the depth limit (not expanded).
 *
 * With `apis`, a service also depends on every other service providing an API it consumes: such an
 * edge lists those APIs (`apis`), and says whether there is a direct dependency too (`direct`).
 */
export async function dependencyGraph(
  db: CatalogDb,
  rootId: string,
  direction: Direction,
  maxDepth: number | null,
  apis = false,
) {
  // Raw SQL is not schema-qualified by withSchema, so the tables are named in full.
  const deps = sql.table(`${SCHEMA}.dependencies`);
  const services = sql.table(`${SCHEMA}.services`);
  const serviceApis = sql.table(`${SCHEMA}.service_apis`);
  const apiTable = sql.table(`${SCHEMA}.apis`);
  // Every edge, with the API it goes through (null for a direct dependency). Inline, not a CTE, so
  // that each step looks its edges up through the indexes.
  const edgeSource = apis
    ? sql`(
        select service_id, depends_on_id, null::text as api_id from ${deps}
        union all
        select c.service_id, p.service_id, c.api_id
        from ${serviceApis} as c
        join ${serviceApis} as p on p.api_id = c.api_id and p.relation = 'provides'
        where c.relation = 'consumes' and p.service_id <> c.service_id
      )`
    : deps;
  // Walking down goes from service_id to depends_on_id; walking up, the other way.
  const [near, far] =
    direction === 'down'
      ? [sql.ref('d.service_id'), sql.ref('d.depends_on_id')]
      : [sql.ref('d.depends_on_id'), sql.ref('d.service_id')];
  const order = sql`order by d.service_id, d.depends_on_id`;
  // An edge through APIs: whether a direct dependency backs it too, and the APIs, by id.
  const apiColumns = sql`bool_or(d.api_id is null) as direct,
    coalesce(array_agg(d.api_id order by d.api_id) filter (where d.api_id is not null), '{}') as apis`;
  const usedApis = sql`
    select array_agg(a.id order by lower(a.name), a.id) as api_ids,
           array_agg(a.name order by lower(a.name), a.id) as api_names
    from ${apiTable} as a
    where a.id in (select unnest(apis) from crossed)`;
  // Columns as arrays, zipped here: far cheaper than building a JSON object per node and edge.
  const { rows } = await sql<{
    ids: string[] | null;
    names: string[] | null;
    depths: number[] | null;
    froms: string[] | null;
    tos: string[] | null;
    directs: boolean[] | null;
    via: string[][] | null;
    api_ids: string[] | null;
    api_names: string[] | null;
  }>`
    with recursive walk(frontier, visited, depth) as (
      select array[${rootId}]::text[], array[${rootId}]::text[], 0
      union all
      select step.next, walk.visited || step.next, walk.depth + 1
      from walk
      cross join lateral (
        select array_agg(distinct ${far}) as next
        from unnest(walk.frontier) as current(id)
        join ${edgeSource} as d on ${near} = current.id
        where ${far} not in (select unnest(walk.visited))
      ) as step
      where step.next is not null
        and (${maxDepth}::int is null or walk.depth < ${maxDepth}::int)
    ),
    found as (
      select unnest(frontier) as id, depth from walk
    ),
    nodes as (
      select array_agg(s.id order by f.depth, lower(s.name), s.id) as ids,
             array_agg(s.name order by f.depth, lower(s.name), s.id) as names,
             array_agg(f.depth order by f.depth, lower(s.name), s.id) as depths
      from found f join ${services} as s on s.id = f.id
    ),
    crossed as (
      select d.service_id, d.depends_on_id, ${apis ? apiColumns : sql`true as direct`}
      from ${edgeSource} as d
      join found n on n.id = ${near}
      join found f on f.id = ${far}
      where ${maxDepth}::int is null or n.depth < ${maxDepth}::int
      ${apis ? sql`group by d.service_id, d.depends_on_id` : sql``}
    ),
    edges as (
      select array_agg(d.service_id ${order}) as froms,
             array_agg(d.depends_on_id ${order}) as tos,
             array_agg(d.direct ${order}) as directs,
             ${apis ? sql`json_agg(d.apis ${order})` : sql`null::json`} as via
      from crossed as d
    ),
    used as (${apis ? usedApis : sql`select null::text[] as api_ids, null::text[] as api_names`})
    select * from nodes, edges, used
  `.execute(db);
  const { ids, names, depths, froms, tos, directs, via, api_ids, api_names } = rows[0];
  return {
    nodes: (ids ?? []).map((id, i) => ({ id, name: names![i], depth: Number(depths![i]) })),
    edges: (froms ?? []).map((from, i) => ({
      from,
      to: tos![i],
      ...(apis && { direct: directs![i], apis: via![i] }),
    })),
    ...(apis && { apis: (api_ids ?? []).map((id, i) => ({ id, name: api_names![i] })) }),
  };
}
