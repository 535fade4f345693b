import {
  conflict,
  IdOrNameParams,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  unique,
  type Access,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { CatalogDb } from '../database.js';
import type { CatalogRoutes } from '../domain/state.js';
import {
  deleteUnusedApi,
  findApi,
  getApi,
  insertApi,
  listApis,
  updateApi,
} from '../repositories/apis.js';
import { linkedGroup, linkId } from '../repositories/groups.js';
import { findOwnership } from '../repositories/ownership.js';
import { serviceNamesUsing } from '../repositories/relations.js';
import {
  API_BODY_LIMIT,
  ApiInputSchema,
  ApiListQuery,
  ApiSchema,
  ApiSummarySchema,
  ApiUpdateSchema,
  toApi,
  type ApiInput,
} from '../schemas/apis.js';

/** The 409 of a name taken (nameTaken would lower-case `API`). */
const apiNameTaken = (name: string) => `An API named ${name} exists already`;

/** The columns of the fields sent: owner and system resolved (BAD_REQUEST when unknown). */
async function columnsOf(
  db: CatalogDb,
  { owner, system, tags, team: _team, ...fields }: Partial<ApiInput>,
) {
  const ownerRow = await linkedGroup(db, 'owners', 'owner', owner);
  const systemRow = await linkedGroup(db, 'systems', 'system', system);
  return {
    ...fields,
    owner_id: linkId(ownerRow),
    system_id: linkId(systemRow),
    tags: tags && unique(tags),
  };
}

/** APIs: their own collection, named apart from services (spec 2.4 leaves them open). */
export const apiRoutes: CatalogRoutes = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members register APIs; their creator, their team
  // and admins change or remove them.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'apis', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'catalog.api', action: 'read' };
  const CREATE: Access = { resource: 'catalog.api', action: 'create' };
  const UPDATE: Access = { resource: 'catalog.api', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'catalog.api', action: 'delete', rule: 'owner', owner };

  app.get(
    '/apis',
    {
      config: { access: READ },
      schema: {
        operationId: 'listApis',
        summary: 'List APIs by name',
        description:
          'Each with its owner and system by name and the services providing and consuming it; without its definition (get one API for it).',
        querystring: ApiListQuery,
        response: responses({ 200: Type.Array(ApiSummarySchema) }),
      },
    },
    async (request) => ok((await listApis(db, request.query)).map(toApi)),
  );

  app.post(
    '/apis',
    {
      bodyLimit: API_BODY_LIMIT,
      config: { access: CREATE },
      schema: {
        operationId: 'createApi',
        summary: 'Register an API',
        body: ApiInputSchema,
        response: responses({ 201: ApiSchema }),
      },
    },
    async (request, reply) => {
      const id = newId();
      const { name, type, team } = request.body;
      const owned = await ownershipColumns(request.identity, team, access);
      const columns = await columnsOf(db, request.body);
      const row = { ...columns, ...owned, id, name, type, tags: columns.tags ?? [] };
      const insert = () => insertApi(db, row);
      await orConflict(insert, apiNameTaken(name));
      return reply.code(201).send(ok(toApi(await getApi(db, id))));
    },
  );

  app.get(
    '/apis/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getApi',
        summary: 'Get an API with its definition (by id, then by name)',
        params: IdOrNameParams,
        response: responses({ 200: ApiSchema }),
      },
    },
    async (request) => {
      const { id } = await findApi(db, request.params.idOrName);
      return ok(toApi(await getApi(db, id)));
    },
  );

  app.put(
    '/apis/:idOrName',
    {
      bodyLimit: API_BODY_LIMIT,
      config: { access: UPDATE },
      schema: {
        operationId: 'updateApi',
        summary: 'Update an API',
        description: 'Changes the fields sent, any but id; null clears an optional one.',
        params: IdOrNameParams,
        body: ApiUpdateSchema,
        response: responses({ 200: ApiSchema }),
      },
    },
    async (request) => {
      const { id } = await findApi(db, request.params.idOrName);
      const { name } = request.body;
      const team = await teamChange(request.identity, request.body.team, access);
      const columns = { ...(await columnsOf(db, request.body)), team };
      const update = () => updateApi(db, id, columns);
      await (name === undefined ? update() : orConflict(update, apiNameTaken(name)));
      return ok(toApi(await getApi(db, id)));
    },
  );

  app.delete(
    '/apis/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteApi',
        summary: 'Remove an API',
        description:
          'Answers with the removed API. Refused (409, naming them) while services provide or consume it, as systems and owners are while services point at them.',
        params: IdOrNameParams,
        response: responses({ 200: ApiSchema }),
      },
    },
    async (request) => {
      const api = await getApi(db, (await findApi(db, request.params.idOrName)).id);
      const { providing, consuming } = await serviceNamesUsing(db, api.id);
      const uses = [
        providing.length > 0 && `services providing it: ${providing.join(', ')}`,
        consuming.length > 0 && `services consuming it: ${consuming.join(', ')}`,
      ].filter(Boolean);
      if (uses.length > 0) throw conflict(`API ${api.name} still has ${uses.join('; ')}`);
      // A service that came to use it between the check and the delete keeps it.
      if (!(await deleteUnusedApi(db, api.id))) throw conflict(`API ${api.name} is still in use`);
      return ok(toApi(api));
    },
  );
};
