import {
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  unique,
  type Access,
  type Static,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { CatalogDb } from '../database.js';
import type { CatalogRoutes } from '../domain/state.js';
import { deleteUnlessUsed, linkedGroup, linkId } from '../repositories/groups.js';
import { findOwnership } from '../repositories/ownership.js';
import {
  deleteSystem,
  findSystem,
  getSystem,
  insertSystem,
  listSystems,
  systemDependents,
  systemServices,
  updateSystem,
  type SystemRow,
} from '../repositories/systems.js';
import {
  SystemInputSchema,
  SystemListQuery,
  SystemSchema,
  SystemUpdateSchema,
  SystemWithServicesSchema,
  toSystem,
} from '../schemas/systems.js';

type SystemInput = Static<typeof SystemUpdateSchema>;

/**
 * The columns of the fields sent: the owner resolved (BAD_REQUEST when unknown); a field not sent
 * stays undefined, one cleared is null.
 */
async function columnsOf(
  db: CatalogDb,
  { name, namespace, description, owner, domain, tags }: SystemInput,
) {
  const ownerRow = await linkedGroup(db, 'owners', 'owner', owner);
  const domainRow = await linkedGroup(db, 'domains', 'domain', domain);
  return {
    name,
    namespace,
    description,
    owner_id: linkId(ownerRow),
    domain_id: linkId(domainRow),
    tags: tags && unique(tags),
  };
}

/** Systems: named records that services and APIs point at, each pointing at its owner. */
export const systemRoutes: CatalogRoutes = async (app, { db, access, state }) => {
  // Shared knowledge: any signed-in caller reads; members create; the system's creator, its team
  // and admins change or delete it.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'systems', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'catalog.system', action: 'read' };
  const CREATE: Access = { resource: 'catalog.system', action: 'create' };
  const UPDATE: Access = { resource: 'catalog.system', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'catalog.system', action: 'delete', rule: 'owner', owner };

  /** The system with the services that point at it. */
  const withServices = async (row: SystemRow) => ({
    ...toSystem(row),
    services: await systemServices(db, row.id),
  });

  app.get(
    '/systems',
    {
      config: { access: READ },
      schema: {
        operationId: 'listSystems',
        summary: 'List systems by name',
        querystring: SystemListQuery,
        response: responses({ 200: Type.Array(SystemSchema) }),
      },
    },
    async (request) => ok((await listSystems(db, request.query)).map(toSystem)),
  );

  app.post(
    '/systems',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createSystem',
        summary: 'Create a system',
        body: SystemInputSchema,
        response: responses({ 201: SystemSchema }),
      },
    },
    async (request, reply) => {
      const { name, team } = request.body;
      const owned = await ownershipColumns(request.identity, team, access);
      const id = newId();
      const row = { ...(await columnsOf(db, request.body)), ...owned, id, name };
      await orConflict(() => insertSystem(db, row), nameTaken('system', name));
      return reply.code(201).send(ok(toSystem(await getSystem(db, id))));
    },
  );

  app.get(
    '/systems/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getSystem',
        summary: 'Get a system with its services',
        params: IdOrNameParams,
        response: responses({ 200: SystemWithServicesSchema }),
      },
    },
    async (request) => ok(await withServices(await findSystem(db, request.params.idOrName))),
  );

  app.put(
    '/systems/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateSystem',
        summary: 'Update a system',
        description: 'Changes the fields sent; null clears an optional one.',
        params: IdOrNameParams,
        body: SystemUpdateSchema,
        response: responses({ 200: SystemWithServicesSchema }),
      },
    },
    async (request) => {
      const { id } = await findSystem(db, request.params.idOrName);
      const { name } = request.body;
      const columns = await columnsOf(db, request.body);
      const team = await teamChange(request.identity, request.body.team, access);
      const update = () => updateSystem(db, id, { ...columns, team });
      await (name === undefined ? update() : orConflict(update, nameTaken('system', name)));
      // Renamed: its services' scorecard results name it (a deletion is refused while it has any).
      if (name !== undefined || request.body.namespace !== undefined)
        await state.scorecards.groupChanged('system_id', id);
      return ok(await withServices(await getSystem(db, id)));
    },
  );

  app.delete(
    '/systems/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteSystem',
        summary: 'Delete a system',
        description:
          'Answers with the deleted system; 409 while services, APIs still point at it, naming them.',
        params: IdOrNameParams,
        response: responses({ 200: SystemSchema }),
      },
    },
    async (request) => {
      const system = await findSystem(db, request.params.idOrName);
      const dependents = await systemDependents(db, system.id);
      await deleteUnlessUsed(`System ${system.name}`, dependents, () =>
        deleteSystem(db, system.id),
      );
      return ok(toSystem(system));
    },
  );
};
