import type { Direction } from '../../schemas/dependencies.js';

/**
 * What the dependency graph is made of, as the database gives it (repositories/graph.ts): the
 * services in the database's order of their ids, each with its rank in the order of
 * `lower(name), id`; the direct dependencies; the APIs (also in their ids' order, with a name
 * rank) and who provides and consumes them. Ranks come from the database so that every order
 * here is the database's collation, not JavaScript's.
 */
export interface GraphRows {
  ids: string[];
  names: string[];
  nameRanks: number[];
  froms: string[];
  tos: string[];
  apiIds: string[];
  apiNames: string[];
  apiNameRanks: number[];
  linkServices: string[];
  linkApis: string[];
  linkProvides: boolean[];
}

/** Adjacency as compressed rows: the neighbours of `i` are `to[start[i]]` to `to[start[i + 1] - 1]`. */
interface Rows {
  start: Int32Array;
  to: Int32Array;
}

/**
 * The edges a walk follows, `from` depends on `to`: `down` by `from` (each row in `to` order, so
 * that a row's position is the edge's), `up` by `to`. Through APIs, each edge also says whether a
 * direct dependency backs it and through which APIs (indexes, in their ids' order) it goes.
 */
interface Edges {
  down: Rows;
  up: Rows;
  direct?: Uint8Array;
  apis?: Array<Int32Array | undefined>;
}

export interface GraphNode {
  id: string;
  name: string;
  depth: number;
}
export interface GraphEdge {
  from: string;
  to: string;
  direct?: boolean;
  apis?: string[];
}
export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  apis?: Array<{ id: string; name: string }>;
}

/** Sorted pairs (as keys `from * n + to`, ascending) as rows both ways. */
function edgesOf(n: number, keys: Float64Array): Edges {
  const rows = (by: (key: number) => number, other: (key: number) => number): Rows => {
    const start = new Int32Array(n + 1);
    for (const key of keys) start[by(key) + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const to = new Int32Array(keys.length);
    // Stable: rows keep the keys' order, so `down` rows are in `to` order and positions match.
    for (const key of keys) to[fill[by(key)]++] = other(key);
    return { start, to };
  };
  const from = (key: number) => Math.floor(key / n);
  const to = (key: number) => key % n;
  return { down: rows(from, to), up: rows(to, from) };
}

/** The catalog's dependency graph in memory, walked in time proportional to what it finds. */
export class CatalogGraph {
  private readonly index = new Map<string, number>();
  private readonly nameRanks: Int32Array;
  /** The service at each name rank: `byNameRank[nameRanks[i]] === i`. */
  private readonly byNameRank: Int32Array;
  private readonly direct: Edges;
  private viaApis?: Edges;

  constructor(private readonly rows: GraphRows) {
    const n = rows.ids.length;
    rows.ids.forEach((id, i) => this.index.set(id, i));
    this.nameRanks = Int32Array.from(rows.nameRanks);
    this.byNameRank = new Int32Array(n + 1);
    this.nameRanks.forEach((rank, i) => (this.byNameRank[rank] = i));
    const keys = new Float64Array(rows.froms.length);
    rows.froms.forEach((from, k) => {
      keys[k] = this.index.get(from)! * n + this.index.get(rows.tos[k])!;
    });
    this.direct = edgesOf(n, keys.sort());
  }

  has(id: string) {
    return this.index.has(id);
  }

  /**
   * The edges through APIs as well (made on first use): a consumer of an API depends on each
   * other service providing it.
   */
  private apiEdges(): Edges {
    if (this.viaApis) return this.viaApis;
    const { rows } = this;
    const n = rows.ids.length;
    const apiIndex = new Map(rows.apiIds.map((id, i) => [id, i]));
    const providers: number[][] = rows.apiIds.map(() => []);
    const consumers: number[][] = rows.apiIds.map(() => []);
    rows.linkApis.forEach((api, k) => {
      const service = this.index.get(rows.linkServices[k])!;
      (rows.linkProvides[k] ? providers : consumers)[apiIndex.get(api)!].push(service);
    });
    const edges = new Map<number, { direct: boolean; apis: number[] }>();
    const edge = (key: number) => {
      let found = edges.get(key);
      if (!found) edges.set(key, (found = { direct: false, apis: [] }));
      return found;
    };
    for (let k = 0; k < this.direct.down.start.length - 1; k++)
      for (let e = this.direct.down.start[k]; e < this.direct.down.start[k + 1]; e++)
        edge(k * n + this.direct.down.to[e]).direct = true;
    // APIs in their ids' order, so that each edge's list is too.
    consumers.forEach((from, api) => {
      for (const c of from)
        for (const p of providers[api]) if (p !== c) edge(c * n + p).apis.push(api);
    });
    const keys = Float64Array.from(edges.keys()).sort();
    const viaApis: Edges = edgesOf(n, keys);
    viaApis.direct = new Uint8Array(keys.length);
    viaApis.apis = new Array<Int32Array | undefined>(keys.length);
    keys.forEach((key, e) => {
      const { direct, apis } = edges.get(key)!;
      viaApis.direct![e] = direct ? 1 : 0;
      if (apis.length) viaApis.apis![e] = Int32Array.from(apis);
    });
    return (this.viaApis = viaApis);
  }

  /**
   * The services reachable from `rootId`, each once at its shortest depth, ordered by depth then
   * `lower(name), id`; the edges among them (`from` depends on `to`, ordered by `from, to`),
   * leaving out those of services at the depth limit (not expanded). With `apis`, edges through
   * APIs too, and the APIs they go through (ordered by `lower(name), id`).
   */
  walk(rootId: string, direction: Direction, maxDepth: number | null, apis: boolean): Graph {
    const { ids, names } = this.rows;
    const edges = apis ? this.apiEdges() : this.direct;
    const step = direction === 'down' ? edges.down : edges.up;
    const depth = new Int32Array(ids.length).fill(-1);
    // Breadth first, in one queue: level d is queue[levelEnds[d - 1] ?? 0 .. levelEnds[d]).
    const queue = new Int32Array(ids.length);
    queue[0] = this.index.get(rootId)!;
    depth[queue[0]] = 0;
    let size = 1;
    const levelEnds = [1];
    for (let d = 0, begin = 0; maxDepth === null || d < maxDepth; d++) {
      const end = size;
      for (let q = begin; q < end; q++)
        for (let u = queue[q], e = step.start[u]; e < step.start[u + 1]; e++) {
          const v = step.to[e];
          if (depth[v] < 0) {
            depth[v] = d + 1;
            queue[size++] = v;
          }
        }
      if (size === end) break;
      levelEnds.push(size);
      begin = end;
    }
    // Each level in name order: its name ranks sorted as numbers (a typed array's own sort, no
    // comparator), then each rank's service (a comparator sort and Array#flat cost 3 times more).
    const nodes: GraphNode[] = [];
    for (let d = 0, begin = 0; d < levelEnds.length; begin = levelEnds[d++]) {
      const ranks = queue
        .slice(begin, levelEnds[d])
        .map((i) => this.nameRanks[i])
        .sort();
      for (const rank of ranks) {
        const i = this.byNameRank[rank];
        nodes.push({ id: ids[i], name: names[i], depth: d });
      }
    }
    // An edge's near end (the one the walk expands) must be under the limit.
    const expanded = (i: number) => maxDepth === null || depth[i] < maxDepth;
    const found = queue.subarray(0, size).sort();
    const out: GraphEdge[] = [];
    const used = apis ? new Uint8Array(this.rows.apiIds.length) : undefined;
    const { down } = edges;
    for (const from of found)
      for (let e = down.start[from]; e < down.start[from + 1]; e++) {
        const to = down.to[e];
        if (depth[to] < 0 || !expanded(direction === 'down' ? from : to)) continue;
        if (!used) {
          out.push({ from: ids[from], to: ids[to] });
          continue;
        }
        const through = edges.apis![e] ?? [];
        for (const api of through) used[api] = 1;
        out.push({
          from: ids[from],
          to: ids[to],
          direct: edges.direct![e] === 1,
          apis: Array.from(through, (api) => this.rows.apiIds[api]),
        });
      }
    if (!used) return { nodes, edges: out };
    const { apiIds, apiNames, apiNameRanks } = this.rows;
    const crossed = [...used.keys()].filter((api) => used[api] === 1);
    crossed.sort((a, b) => apiNameRanks[a] - apiNameRanks[b]);
    return {
      nodes,
      edges: out,
      apis: crossed.map((api) => ({ id: apiIds[api], name: apiNames[api] })),
    };
  }
}
