import { badRequest, IdOrNameParams, notFound, ok, responses, type Access } from '@platform/core';
import type { CatalogRoutes } from '../domain/state.js';
import { addDependency, dependencyIds, removeDependency } from '../repositories/dependencies.js';
import { findOwnership } from '../repositories/ownership.js';
import { findService, findServiceIds } from '../repositories/services.js';
import {
  DependenciesSchema,
  DependencyInputSchema,
  DependencyParams,
  GraphQuery,
  GraphSchema,
} from '../schemas/dependencies.js';

export const dependencyRoutes: CatalogRoutes = async (app, { db, state }) => {
  // A service's dependencies are part of it: its owners change them. The graph is shared knowledge.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'services', (request.params as { idOrName?: unknown }).idOrName);
  const CHANGE: Access = { resource: 'catalog.service', action: 'update', rule: 'owner', owner };
  const GRAPH: Access = { resource: 'catalog.graph', action: 'read' };

  app.post(
    '/services/:idOrName/dependencies',
    {
      config: { access: CHANGE },
      schema: {
        operationId: 'addDependency',
        summary: 'Add a dependency',
        description:
          'The service depends on dependsOn from now on. Adding one twice changes nothing. Answers with the updated dependencies.',
        params: IdOrNameParams,
        body: DependencyInputSchema,
        response: responses({ 200: DependenciesSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const [id, target] = await findServiceIds(db, [idOrName, request.body.dependsOn]);
      if (id === target) throw badRequest('A service cannot depend on itself');
      await addDependency(db, id, target);
      return ok(await dependencyIds(db, id));
    },
  );

  app.delete(
    '/services/:idOrName/dependencies/:dependsOn',
    {
      config: { access: CHANGE },
      schema: {
        operationId: 'removeDependency',
        summary: 'Remove a dependency',
        description:
          'Answers with the updated dependencies; 404 when there was no such dependency.',
        params: DependencyParams,
        response: responses({ 200: DependenciesSchema }),
      },
    },
    async (request) => {
      const service = await findService(db, request.params.idOrName);
      const target = await findService(db, request.params.dependsOn);
      if (!(await removeDependency(db, service.id, target.id)))
        throw notFound('Dependency', `${service.name} does not depend on ${target.name}`);
      return ok(await dependencyIds(db, service.id));
    },
  );

  app.get(
    '/deps/:idOrName',
    {
      config: { access: GRAPH },
      schema: {
        operationId: 'getDependencyGraph',
        summary: 'The transitive dependency graph of a service',
        description:
          'down: what it depends on, directly or not; up: what depends on it. Cycles are fine. Each service appears once, at its shortest depth. include=apis also follows APIs: consuming an API depends on its providers.',
        params: IdOrNameParams,
        querystring: GraphQuery,
        response: responses({ 200: GraphSchema }),
      },
    },
    async (request, reply) => {
      const { idOrName } = request.params;
      const { direction, depth = null, include } = request.query;
      // The two lookups at once. A root the graph lacks was made after the graph's version was
      // read: the graph is read again, after the root (gone by then: removed meanwhile).
      const [root, first] = await Promise.all([findService(db, idOrName), state.graph.current()]);
      const graph = first.has(root.id) ? first : await state.graph.current();
      if (!graph.has(root.id)) throw notFound('Service', idOrName);
      const walked = graph.walk(root.id, direction, depth, include === 'apis');
      const body = ok({
        // Its name as the graph has it (a rename between the two lookups shows in both or neither).
        root: { id: root.id, name: walked.nodes[0]?.name ?? root.name },
        direction,
        depth,
        include,
        ...walked,
      });
      // JSON.stringify rather than the schema's serialiser, three times as slow on a large graph:
      // every field is one the schema declares (the walk builds them one by one).
      return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
    },
  );
};
