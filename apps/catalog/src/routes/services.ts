import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  stampsAt,
  Type,
  type ServiceRoutes,
  unique,
} from '@platform/core';
import type { CatalogDatabase, CatalogDb } from '../database.js';
import { findGroup } from '../repositories/groups.js';
import {
  deleteService,
  findService,
  findServiceIds,
  getService,
  insertService,
  listServices,
  updateService,
  type ServiceWithLinks,
} from '../repositories/services.js';
import {
  ServiceInputSchema,
  ServiceListQuery,
  ServiceSchema,
  ServiceUpdateSchema,
  type Service,
} from '../schemas/services.js';

/** The service as shown (the reply keeps only the fields of ServiceSchema). */
const toService = (row: ServiceWithLinks): Service => ({
  ...row,
  ...stampsAt(row.created_at, row.updated_at),
});

/** The system or owner to point at (BAD_REQUEST when unknown); undefined and null pass through. */
async function linked(db: CatalogDb, kind: 'system' | 'owner', idOrName?: string | null) {
  if (idOrName == null) return idOrName;
  const row = await findGroup(db, `${kind}s`, idOrName);
  if (!row) throw badRequest(`Unknown ${kind}: ${idOrName}`);
  return row;
}

export const serviceRoutes: ServiceRoutes<CatalogDatabase> = async (app, { db }) => {
  app.get(
    '/services',
    {
      schema: {
        operationId: 'listServices',
        summary: 'List services by name',
        description: 'Each with its dependencies and the names of its system and owner.',
        querystring: ServiceListQuery,
        response: responses({ 200: Type.Array(ServiceSchema) }),
      },
    },
    async (request) => ok((await listServices(db, request.query)).map(toService)),
  );

  app.post(
    '/services',
    {
      schema: {
        operationId: 'createService',
        summary: 'Register a service',
        body: ServiceInputSchema,
        response: responses({ 201: ServiceSchema }),
      },
    },
    async (request, reply) => {
      const { name, description, tags } = request.body;
      const system = await linked(db, 'system', request.body.system);
      const owner = await linked(db, 'owner', request.body.owner);
      const service = { id: newId(), name, description, tags: unique(tags ?? []) };
      const links = { system_id: system?.id, owner_id: owner?.id };
      const insert = () => insertService(db, { ...service, ...links });
      const row = await orConflict(insert, nameTaken('Service', name));
      const names = { system: system?.name ?? null, owner: owner?.name ?? null, dependencies: [] };
      return reply.code(201).send(ok(toService({ ...row, ...names })));
    },
  );

  app.get(
    '/services/:idOrName',
    {
      schema: {
        operationId: 'getService',
        summary: 'Get a service (by id, then by name)',
        params: IdOrNameParams,
        response: responses({ 200: ServiceSchema }),
      },
    },
    async (request) =>
      ok(toService(await getService(db, (await findService(db, request.params.idOrName)).id))),
  );

  app.put(
    '/services/:idOrName',
    {
      schema: {
        operationId: 'updateService',
        summary: 'Update a service',
        description:
          'Changes the fields sent, any but id; null clears description, system or owner. dependencies, when sent, replaces them.',
        params: IdOrNameParams,
        body: ServiceUpdateSchema,
        response: responses({ 200: ServiceSchema }),
      },
    },
    async (request) => {
      const { id } = await findService(db, request.params.idOrName);
      const { name, description, tags, dependencies } = request.body;
      const system = await linked(db, 'system', request.body.system);
      const owner = await linked(db, 'owner', request.body.owner);
      const targets = dependencies && unique(await findServiceIds(db, dependencies));
      if (targets?.includes(id)) throw badRequest('A service cannot depend on itself');
      // A link not sent stays (undefined), one cleared goes (null).
      const links = { system_id: system && system.id, owner_id: owner && owner.id };
      const changes = { name, description, tags: tags && unique(tags), ...links };
      const update = () => updateService(db, id, changes, targets);
      await (name === undefined ? update() : orConflict(update, nameTaken('Service', name)));
      return ok(toService(await getService(db, id)));
    },
  );

  app.delete(
    '/services/:idOrName',
    {
      schema: {
        operationId: 'deleteService',
        summary: 'Remove a service',
        description:
          'Answers with the removed service. It is also removed from the dependencies of every other service.',
        params: IdOrNameParams,
        response: responses({ 200: ServiceSchema }),
      },
    },
    async (request) => {
      const service = await getService(db, (await findService(db, request.params.idOrName)).id);
      await deleteService(db, service.id);
      return ok(toService(service));
    },
  );
};
