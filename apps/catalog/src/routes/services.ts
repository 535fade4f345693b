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
  type Static,
  unique,
} from '@platform/core';
import type { CatalogDatabase, CatalogDb } from '../database.js';
import { findApiIds } from '../repositories/apis.js';
import { linkedGroup, linkId } from '../repositories/groups.js';
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
import { checkAnnotations, checkLinks } from '../schemas/metadata.js';

/** The service as shown (the reply keeps only the fields of ServiceSchema). */
const toService = (row: ServiceWithLinks): Service => ({
  ...row,
  ...stampsAt(row.created_at, row.updated_at),
});

type ServiceInput = Static<typeof ServiceUpdateSchema>;

/**
 * The columns and links of the fields sent: system and owner resolved (BAD_REQUEST when unknown),
 * APIs by id or name (NOT_FOUND when unknown), annotation keys checked; a field not sent stays
 * undefined, one cleared is null (links and annotations: empty).
 */
async function columnsOf(db: CatalogDb, fields: ServiceInput) {
  const { name, description, type, lifecycle, tags, links, annotations } = fields;
  const system = await linkedGroup(db, 'systems', 'system', fields.system);
  const owner = await linkedGroup(db, 'owners', 'owner', fields.owner);
  const apis = (refs?: string[]) => refs && findApiIds(db, unique(refs)).then(unique);
  const columns = {
    name,
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
      const { name } = request.body;
      const { columns, apiLinks } = await columnsOf(db, request.body);
      const id = newId();
      const insert = () =>
        insertService(db, { ...columns, id, name, tags: columns.tags ?? [] }, apiLinks);
      await orConflict(insert, nameTaken('Service', name));
      return reply.code(201).send(ok(toService(await getService(db, id))));
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
          'Changes the fields sent, any but id; null clears an optional one (links and annotations become empty). dependencies, providesApis and consumesApis, when sent, replace them.',
        params: IdOrNameParams,
        body: ServiceUpdateSchema,
        response: responses({ 200: ServiceSchema }),
      },
    },
    async (request) => {
      const { id } = await findService(db, request.params.idOrName);
      const { name, dependencies } = request.body;
      const { columns, apiLinks } = await columnsOf(db, request.body);
      const targets = dependencies && unique(await findServiceIds(db, dependencies));
      if (targets?.includes(id)) throw badRequest('A service cannot depend on itself');
      const links = { ...apiLinks, dependencies: targets };
      const update = () => updateService(db, id, columns, links);
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
