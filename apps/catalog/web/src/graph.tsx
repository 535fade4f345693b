import {
  api,
  Card,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  FilterSelect,
  Link,
  Loading,
  PageHeader,
  useNavigate,
  useParams,
  useQuery,
  useSearchParams,
} from '@platform/ui';
import { useCallback } from 'react';
import { count, fetchGraph, relation, type Direction, type Graph } from './graph-data';
import { GraphCanvas } from './graph-view';
import { RecordLink } from './refs';

const DIRECTIONS = [
  { value: 'both', label: 'Both ways' },
  { value: 'down', label: 'Dependencies (down)' },
  { value: 'up', label: 'Dependents (up)' },
];
const DEPTHS = [
  ...['1', '2', '3', '5', '10'].map((d) => ({ value: d, label: d })),
  { value: 'all', label: 'Unlimited' },
];

/** The graph as text: every service and every dependency, each service a link. */
function GraphLists({ graph, href }: { graph: Graph; href(name: string): string }) {
  const names = new Map(graph.nodes.map((n) => [n.id, n]));
  return (
    <div className="ui-grid">
      <Card title="Services">
        <DataTable
          caption={`${count(graph.nodes.length, 'service', 'services')} in the graph`}
          rows={graph.nodes}
          rowKey={(n) => n.id}
          columns={[
            {
              header: 'Service',
              cell: (n) => <RecordLink to="services" id={n.id} name={n.name} />,
            },
            { header: 'Relation', cell: relation },
            { header: 'Graph', cell: (n) => <Link to={href(n.name)}>Graph of {n.name}</Link> },
          ]}
        />
      </Card>
      <Card title="Dependencies">
        <DataTable
          caption={`${count(graph.edges.length, 'dependency', 'dependencies')} in the graph`}
          rows={graph.edges}
          rowKey={(e) => `${e.from}>${e.to}`}
          empty="No dependencies."
          columns={[
            { header: 'Service', cell: (e) => names.get(e.from)?.name ?? e.from },
            { header: 'Depends on', cell: (e) => names.get(e.to)?.name ?? e.to },
          ]}
        />
      </Card>
    </div>
  );
}

/**
 * The dependency graph of a chosen service: down (what it depends on), up (what depends on it)
 * or both, to a depth; clicking a service re-roots the graph on it.
 */
export function GraphPage() {
  const key = useParams().key ?? '';
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const direction = (params.get('direction') ?? 'both') as Direction;
  const depthParam = params.get('depth') ?? '3';
  const depth = depthParam === 'all' ? null : Number(depthParam);
  const search = params.toString();
  const href = useCallback(
    (name: string) => `/graph/${encodeURIComponent(name)}${search ? `?${search}` : ''}`,
    [search],
  );
  const services = useQuery({
    queryKey: ['services', 'names'],
    queryFn: () => api.catalog.listServices({ query: { limit: 1000 } }),
  });
  const graph = useQuery({
    queryKey: ['deps', 'graph', key, direction, depth],
    queryFn: () => fetchGraph(key, direction, depth),
    enabled: key !== '',
  });
  const set = (name: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(name, value);
      return next;
    });
  const names = (services.data ?? []).map((s) => s.name);
  const rootName = graph.data?.root.name ?? key;
  if (rootName && !names.includes(rootName)) names.unshift(rootName);
  return (
    <>
      <PageHeader
        title={graph.data ? `Dependency graph of ${graph.data.root.name}` : 'Dependency graph'}
        actions={
          graph.data && (
            <Link className="ui-button" to={`/services/${graph.data.root.id}`}>
              Open {graph.data.root.name}
            </Link>
          )
        }
      >
        What a service depends on and what depends on it. Choose a service in the graph to see its
        own.
      </PageHeader>
      <FilterBar>
        <FilterSelect
          label="Service"
          value={rootName}
          onChange={(name) => navigate(href(name))}
          any={rootName ? null : 'Choose a service…'}
          options={names}
        />
        <FilterSelect
          any={null}
          label="Direction"
          value={direction}
          onChange={(v) => set('direction', v)}
          options={DIRECTIONS}
        />
        <FilterSelect
          any={null}
          label="Depth"
          value={depthParam}
          onChange={(v) => set('depth', v)}
          options={DEPTHS}
        />
      </FilterBar>
      <ErrorBanner error={graph.error ?? services.error} />
      {key === '' ? (
        <Empty>Choose a service to see its dependency graph.</Empty>
      ) : graph.isPending ? (
        <Loading />
      ) : (
        graph.data && (
          <>
            <GraphCanvas
              key={`${graph.data.root.id}-${direction}-${depthParam}`}
              graph={graph.data}
              href={href}
            />
            <GraphLists graph={graph.data} href={href} />
          </>
        )
      )}
    </>
  );
}
