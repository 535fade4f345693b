import { api, type DataOf } from '@platform/ui';

type Answer = DataOf<'catalog.getDependencyGraph'>;

export type Direction = 'down' | 'up' | 'both';

/** A service in the graph: how many steps down (it is depended on) and up (it depends). */
export interface GraphNode {
  id: string;
  name: string;
  down: number | null;
  up: number | null;
}

/** `from` depends on `to`. */
export interface GraphEdge {
  from: string;
  to: string;
}

export interface Graph {
  root: { id: string; name: string };
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** One graph from the API's answers (both directions for `both`), nodes and edges once each. */
export function mergeGraphs(answers: readonly Answer[]): Graph {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  for (const answer of answers) {
    for (const n of answer.nodes) {
      const node = nodes.get(n.id) ?? { id: n.id, name: n.name, down: null, up: null };
      node[answer.direction] = n.depth;
      nodes.set(n.id, node);
    }
    for (const e of answer.edges) edges.set(`${e.from}>${e.to}`, { from: e.from, to: e.to });
  }
  return { root: answers[0].root, nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** The graph around `idOrName`: `depth` steps (all when null) in `direction`. */
export async function fetchGraph(
  idOrName: string,
  direction: Direction,
  depth: number | null,
): Promise<Graph> {
  const walk = (d: 'down' | 'up') =>
    api.catalog.getDependencyGraph({
      path: { idOrName },
      query: { direction: d, ...(depth === null ? {} : { depth }) },
    });
  const directions: ('down' | 'up')[] = direction === 'both' ? ['down', 'up'] : [direction];
  return mergeGraphs(await Promise.all(directions.map(walk)));
}

/** `3 services`, `1 dependency`. */
export const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How a node stands to the root, in words: "root", "depends on, 2 steps", "used by, 1 step". */
export function relation(node: GraphNode): string {
  const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;
  if (node.down === 0 || node.up === 0) return 'root';
  const parts = [];
  if (node.down !== null) parts.push(`dependency, ${steps(node.down)} down`);
  if (node.up !== null) parts.push(`dependent, ${steps(node.up)} up`);
  return parts.join('; ');
}
