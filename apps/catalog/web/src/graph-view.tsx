import { Graph as Layout, layout } from '@dagrejs/dagre';
import { Link } from '@platform/ui';
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo } from 'react';
import { count, type Graph } from './graph-data';

type ServiceNode = Node<{ name: string; href: string; root: boolean }, 'service'>;

const HEIGHT = 40;
const widthOf = (name: string) => Math.max(120, name.length * 8 + 32);

/** A service: its name, a link that re-roots the graph on it. */
function ServiceNodeView({ data }: NodeProps<ServiceNode>) {
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <Link
        className="catalog-node-link nodrag nopan"
        to={data.href}
        aria-current={data.root ? 'page' : undefined}
      >
        {data.name}
      </Link>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </>
  );
}

const nodeTypes = { service: ServiceNodeView };

/** Positions from dagre, left to right: a service left of what it depends on. */
function laidOut(graph: Graph, href: (name: string) => string) {
  const g = new Layout();
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 72 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: widthOf(n.name), height: HEIGHT });
  for (const e of graph.edges) g.setEdge(e.from, e.to);
  layout(g);
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const nodes: ServiceNode[] = graph.nodes.map((n) => {
    const { x, y } = g.node(n.id);
    const width = widthOf(n.name);
    const root = n.id === graph.root.id;
    return {
      id: n.id,
      type: 'service',
      position: { x: x - width / 2, y: y - HEIGHT / 2 },
      width,
      height: HEIGHT,
      className: root ? 'catalog-node catalog-node-root' : 'catalog-node',
      data: { name: n.name, href: href(n.name), root },
    };
  });
  const edges: Edge[] = graph.edges.map((e) => ({
    id: `${e.from}>${e.to}`,
    source: e.from,
    target: e.to,
    ariaLabel: `${names.get(e.from)} depends on ${names.get(e.to)}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
  }));
  return { nodes, edges };
}

/**
 * The graph drawn: pan and zoom, every service a link that re-roots the graph on it (the same
 * nodes and edges are listed as text beside it, for screen readers and keyboards).
 */
export function GraphCanvas({ graph, href }: { graph: Graph; href(name: string): string }) {
  const { nodes, edges } = useMemo(() => laidOut(graph, href), [graph, href]);
  return (
    <div className="catalog-graph">
      <ReactFlow
        aria-label={`Dependency graph of ${graph.root.name}: ${count(nodes.length, 'service', 'services')}, ${count(edges.length, 'dependency', 'dependencies')}`}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ maxZoom: 1.2 }}
        minZoom={0.1}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        defaultMarkerColor={null}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
