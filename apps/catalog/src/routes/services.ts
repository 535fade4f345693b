import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type Static,
  unique,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { CatalogDb } from '../database.js';
import type { CatalogRoutes } from '../domain/state.js';
import { findApiIds } from '../repositories/apis.js';
import { linkedGroup, linkId } from '../repositories/groups.js';
import { findOwnership } from '../repositories/ownership.js';
import {
  deleteService,
  findService,
  findServiceIds,
  getService,
  insertService,
  listServices,
  updateService,
} from '../repositories/services.js';
import {
  ServiceInputSchema,
  ServiceListQuery,
  ServiceSchema,
  ServiceUpdateSchema,
  toService,
} from '../schemas/services.js';
import { checkAnnotations, checkLinks } from '../schemas/metadata.js';

type ServiceInput = Static<typeof ServiceUpdateSchema>;

/**
 * The columns and links of the fields sent: system and owner resolved (BAD_REQUEST when unknown),
 * APIs by id or name (NOT_FOUND when unknown), annotation keys checked; a field not sent stays
 * undefined, one cleared is null (links and annotations: empty).
 */
async function columnsOf(db: CatalogDb, fields: ServiceInput) {
  const { name, namespace, description, type, lifecycle, tags, links, annotations } = fields;
  const system = await linkedGroup(db, 'systems', 'system', fields.system);
  const owner = await linkedGroup(db, 'owners', 'owner', fields.owner);
  const apis = (refs?: string[]) => refs && findApiIds(db, unique(refs)).then(unique);
  const columns = {
    name,
    namespace,
    description,
    type,
    lifecycle,
    tags: tags && unique(tags),
    links: links === null ? [] : checkLinks(links),
    annotations: annotations === null ? {} : checkAnnotations(annotations),
    system_id: linkId(system),
    owner_id: linkId(owner),
  };
  const apiLinks = {
    providesApis: await apis(fields.providesApis),
    consumesApis: await apis(fields.consumesApis),
  };
  return { columns, apiLinks };
}

export const serviceRoutes: CatalogRoutes = async (app, { db, access, state }) => {
  // Shared knowledge: any signed-in caller reads; members register services; their creator, their
  // team and admins change or remove them.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'services', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'catalog.service', action: 'read' };
  const CREATE: Access = { resource: 'catalog.service', action: 'create' };
  const UPDATE: Access = { resource: 'catalog.service', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'catalog.service', action: 'delete', rule: 'owner', owner };

  app.get(
    '/services',
    {
      config: { access: READ },
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
      config: { access: CREATE },
      schema: {
        operationId: 'createService',
        summary: 'Register a service',
        body: ServiceInputSchema,
        response: responses({ 201: ServiceSchema }),
      },
    },
    async (request, reply) => {
      const { name, team } = request.body;
      const owned = await ownershipColumns(request.identity, team, access);
      const { columns, apiLinks } = await columnsOf(db, request.body);
      const id = newId();
      const row = { ...columns, ...owned, id, name, tags: columns.tags ?? [] };
      const insert = () => insertService(db, row, apiLinks);
      await orConflict(insert, nameTaken('Service', name));
      await state.scorecards.servicesChanged([id]);
      return reply.code(201).send(ok(toService(await getService(db, id))));
    },
  );

  app.get(
    '/services/:idOrName',
    {
      config: { access: READ },
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
      config: { access: UPDATE },
      schema: {
        operationId: 'updateService',
        summary: 'Update a service',
        description:
          'Changes the fields sent, any but id; null clears an optional one (links and annotations become empty). dependencies, providesApis and consumesApis, when sent, replace them.',
        params: IdOrNameParams,
        body: ServiceUpdateSchema,
        response: responses({ 200: ServiceSchema }),
      },
    },
    async (request) => {
      const { id } = await findService(db, request.params.idOrName);
      const { name, dependencies } = request.body;
      const team = await teamChange(request.identity, request.body.team, access);
      const { columns, apiLinks } = await columnsOf(db, request.body);
      const targets = dependencies && unique(await findServiceIds(db, dependencies));
      if (targets?.includes(id)) throw badRequest('A service cannot depend on itself');
      const links = { ...apiLinks, dependencies: targets };
      const update = () => updateService(db, id, { ...columns, team }, links);
      await (name === undefined ? update() : orConflict(update, nameTaken('Service', name)));
      await state.scorecards.servicesChanged([id]);
      return ok(toService(await getService(db, id)));
    },
  );

  app.delete(
    '/services/:idOrName',
    {
      config: { access: DELETE },
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
