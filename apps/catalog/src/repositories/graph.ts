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
 */
export async function dependencyGraph(
  db: CatalogDb,
  rootId: string,
  direction: Direction,
  maxDepth: number | null,
) {
  // Raw SQL is not schema-qualified by withSchema, so the tables are named in full.
  const deps = sql.table(`${SCHEMA}.dependencies`);
  const services = sql.table(`${SCHEMA}.services`);
  // Walking down goes from service_id to depends_on_id; walking up, the other way.
  const [near, far] =
    direction === 'down'
      ? [sql.ref('d.service_id'), sql.ref('d.depends_on_id')]
      : [sql.ref('d.depends_on_id'), sql.ref('d.service_id')];
  // Columns as arrays, zipped here: far cheaper than building a JSON object per node and edge.
  const { rows } = await sql<{
    ids: string[] | null;
    names: string[] | null;
    depths: number[] | null;
    froms: string[] | null;
    tos: string[] | null;
  }>`
    with recursive walk(frontier, visited, depth) as (
      select array[${rootId}]::text[], array[${rootId}]::text[], 0
      union all
      select step.next, walk.visited || step.next, walk.depth + 1
      from walk
      cross join lateral (
        select array_agg(distinct ${far}) as next
        from unnest(walk.frontier) as current(id)
        join ${deps} as d on ${near} = current.id
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
    edges as (
      select array_agg(d.service_id order by d.service_id, d.depends_on_id) as froms,
             array_agg(d.depends_on_id order by d.service_id, d.depends_on_id) as tos
      from ${deps} as d
      join found n on n.id = ${near}
      join found f on f.id = ${far}
      where ${maxDepth}::int is null or n.depth < ${maxDepth}::int
    )
    select * from nodes, edges
  `.execute(db);
  const { ids, names, depths, froms, tos } = rows[0];
  return {
    nodes: (ids ?? []).map((id, i) => ({ id, name: names![i], depth: Number(depths![i]) })),
    edges: (froms ?? []).map((from, i) => ({ from, to: tos![i] })),
  };
}
