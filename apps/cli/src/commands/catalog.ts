import type { Command } from 'commander';
import { invoke } from '../api.js';
import { crudVerbs as crud, outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { importCatalog } from '../imports/catalog.js';

export const catalogSpec: ServiceSpec = {
  service: 'catalog',
  describe: 'Service catalog: services, APIs, systems, domains, owners, templates, dependencies',
  resources: {
    services: {
      verbs: {
        ...crud('Service', 'Services', [
          'id',
          'namespace',
          'name',
          'system',
          'owner',
          'type',
          'lifecycle',
        ]),
        depend: {
          op: 'addDependency',
          args: ['idOrName', 'dependsOn'],
          describe: 'Make a service depend on another',
        },
        undepend: { op: 'removeDependency', describe: 'Remove a dependency' },
      },
    },
    apis: {
      singular: 'API',
      verbs: crud('Api', 'Apis', ['id', 'name', 'type', 'lifecycle', 'owner', 'system']),
    },
    systems: {
      verbs: crud('System', 'Systems', [
        'id',
        'namespace',
        'name',
        'owner',
        'domain',
        'description',
      ]),
    },
    owners: {
      verbs: crud('Owner', 'Owners', [
        'id',
        'namespace',
        'name',
        'kind',
        'type',
        'email',
        'team',
        'parent',
      ]),
    },
    domains: { verbs: crud('Domain', 'Domains', ['id', 'namespace', 'name', 'title', 'owner']) },
    templates: {
      verbs: crud(
        'Template',
        'Templates',
        ['id', 'namespace', 'name', 'title', 'type', 'owner'],
        ['create', 'update', 'delete'],
      ),
    },
  },
  verbs: {
    search: { op: 'search', args: ['q'], columns: ['kind', 'id', 'name', 'match', 'description'] },
  },
};

interface Graph {
  root: { id: string; name: string };
  nodes: Array<{ id: string; name: string; depth: number }>;
  edges: Array<{ from: string; to: string }>;
}

/** The graph as an indented tree from its root; a service seen before is marked, not repeated. */
export function renderTree(graph: Graph, direction: string): string {
  const names = new Map(graph.nodes.map((node) => [node.id, node.name]));
  const next = new Map<string, string[]>();
  for (const { from, to } of graph.edges) {
    const [a, b] = direction === 'up' ? [to, from] : [from, to];
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const lines = [graph.root.name];
  const seen = new Set([graph.root.id]);
  const walk = (id: string, prefix: string) => {
    const children = (next.get(id) ?? []).sort((a, b) =>
      names.get(a)!.localeCompare(names.get(b)!),
    );
    children.forEach((child, i) => {
      const last = i === children.length - 1;
      const repeated = seen.has(child);
      lines.push(
        `${prefix}${last ? '└── ' : '├── '}${names.get(child)}${repeated ? ' (see above)' : ''}`,
      );
      if (!repeated) {
        seen.add(child);
        walk(child, `${prefix}${last ? '    ' : '│   '}`);
      }
    });
  };
  walk(graph.root.id, '');
  return lines.join('\n');
}

export function catalogCommands(program: Command): void {
  const root = serviceCommand(program, catalogSpec);
  root
    .command('deps')
    .description('Dependencies of a service as a tree (--up: what depends on it)')
    .argument('<idOrName>')
    .option('--up', 'What depends on the service instead')
    .option('--depth <n>', 'How far to go')
    .action(async (idOrName: string, opts: { up?: boolean; depth?: string }, cmd: Command) => {
      const direction = opts.up ? 'up' : 'down';
      const query = {
        direction,
        ...(opts.depth === undefined ? {} : { depth: Number(opts.depth) }),
      };
      const graph = await invoke<Graph>('catalog.getDependencyGraph', {
        path: { idOrName },
        query,
      });
      outputOf(cmd).data(graph, undefined, () => renderTree(graph, direction));
    });
  root
    .command('import')
    .description('Import Backstage descriptors (catalog-info.yaml files, or directories of them)')
    .argument('<paths...>')
    .option('--dry-run', 'Report what would change, write nothing')
    .action(async (paths: string[], opts: { dryRun?: boolean }, cmd: Command) =>
      importCatalog(paths, !!opts.dryRun, outputOf(cmd)),
    );
}
