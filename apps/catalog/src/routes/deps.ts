import {
  Type,
  notFound,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  Nullable,
} from '@platform/core';
import { selectByIdOrName } from '@platform/db';
import { traverse } from '../graph.js';
import type { CatalogDb } from '../repository.js';
import { IdOrName, ServiceRef } from './schemas.js';

const GraphSchema = Type.Object({
  root: ServiceRef,
  direction: Type.Enum(['down', 'up']),
  depth: Nullable(Type.Integer({ description: 'The depth limit asked for; null for none' })),
  nodes: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      depth: Type.Integer({
        description: 'Shortest number of steps from the root (0 for the root)',
      }),
    }),
  ),
  edges: Type.Array(
    Type.Object(
      { from: Type.String(), to: Type.String() },
      { description: 'from depends on to (ids)' },
    ),
  ),
});

export const depsRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogDb }> = async (
  app,
  { catalog },
) => {
  app.get(
    '/deps/:idOrName',
    {
      schema: {
        tags: ['catalog'],
        summary: 'The transitive dependency graph of a service',
        description:
          'down: what it depends on, directly or not; up: what depends on it. Cycles are fine. Each service appears once, at its shortest depth.',
        params: IdOrName,
        querystring: Type.Object({
          direction: Type.Enum(['down', 'up'], { default: 'down' }),
          depth: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 10000,
              description: 'Steps to follow; unlimited when absent',
            }),
          ),
        }),
        response: responses({ 200: GraphSchema }),
      },
    },
    async (request) => {
      const root = await selectByIdOrName<{ id: string; name: string }>(
        catalog,
        'services',
        request.params.idOrName,
      );
      if (!root) throw notFound('Service', request.params.idOrName);
      const { direction, depth } = request.query;
      const graph = await traverse(catalog, root.id, direction, depth ?? null);
      return ok({
        root: { id: root.id, name: root.name },
        direction,
        depth: depth ?? null,
        ...graph,
      });
    },
  );
};
