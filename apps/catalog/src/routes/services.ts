import {
  badRequest,
  conflict,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  stampsAt,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { CatalogDatabase, CatalogDb } from '../database.js';
import { findOwner } from '../repositories/owners.js';
import {
  deleteService,
  findService,
  getService,
  insertService,
  listServices,
  updateService,
  type ServiceWithLinks,
} from '../repositories/services.js';
import { findSystem } from '../repositories/systems.js';
import {
  ServiceInputSchema,
  ServiceListQuery,
  ServiceSchema,
  ServiceUpdateSchema,
  type Service,
} from '../schemas/services.js';

const toService = (row: ServiceWithLinks): Service => ({
  id: row.id,
  name: row.name,
  description: row.description,
  tags: row.tags,
  system: row.system,
  owner: row.owner,
  dependencies: row.dependencies,
  ...stampsAt(row.created_at, row.updated_at),
});

/** The values in the order given, repeats dropped (tags, dependencies). */
const distinct = (values: string[]) => [...new Set(values)];

/** Looks up the system or owner a service is to point at; BAD_REQUEST naming it when unknown. */
async function linked<Row>(
  find: (db: CatalogDb, idOrName: string) => Promise<Row | undefined>,
  db: CatalogDb,
  kind: 'system' | 'owner',
  idOrName: string,
): Promise<Row> {
  const row = await find(db, idOrName);
  if (!row) throw badRequest(`Unknown ${kind}: ${idOrName}`);
  return row;
}

export const serviceRoutes: ServiceRoutes<CatalogDatabase> = async (app, { db }) => {
  const load = async (id: string) => {
    const service = await getService(db, id);
    if (!service) throw notFound('Service', id);
    return service;
  };
  /** undefined and null (not sent, cleared) pass through; a name or id becomes the record. */
  const system = async (idOrName: string | null | undefined) =>
    idOrName == null ? idOrName : linked(findSystem, db, 'system', idOrName);
  const owner = async (idOrName: string | null | undefined) =>
    idOrName == null ? idOrName : linked(findOwner, db, 'owner', idOrName);

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
    async (request) => {
      const { system, owner, tag, limit, offset } = request.query;
      const rows = await listServices(db, { system, owner, tag }, { limit, offset });
      return ok(rows.map(toService));
    },
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
      const systemRow = await system(request.body.system);
      const ownerRow = await owner(request.body.owner);
      const row = await insertService(db, {
        id: newId(),
        name,
        description: description ?? null,
        tags: distinct(tags ?? []),
        systemId: systemRow?.id ?? null,
        ownerId: ownerRow?.id ?? null,
      });
      if (!row) throw conflict(nameTaken('Service', name));
      const created = {
        ...row,
        system: systemRow?.name ?? null,
        owner: ownerRow?.name ?? null,
        dependencies: [],
      };
      return reply.code(201).send(ok(toService(created)));
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
      ok(toService(await load((await findService(db, request.params.idOrName)).id))),
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
      const systemRow = await system(request.body.system);
      const ownerRow = await owner(request.body.owner);
      const targets =
        dependencies === undefined
          ? undefined
          : await Promise.all(
              distinct(dependencies).map(async (target) => (await findService(db, target)).id),
            );
      if (targets?.includes(id)) throw badRequest('A service cannot depend on itself');
      const update = updateService(
        db,
        id,
        {
          name,
          description,
          tags: tags && distinct(tags),
          systemId: systemRow === undefined ? undefined : (systemRow?.id ?? null),
          ownerId: ownerRow === undefined ? undefined : (ownerRow?.id ?? null),
        },
        targets,
      );
      await (name === undefined ? update : orConflict(update, nameTaken('Service', name)));
      return ok(toService(await load(id)));
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
      const service = await load((await findService(db, request.params.idOrName)).id);
      await deleteService(db, service.id);
      return ok(toService(service));
    },
  );
};
