import {
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
  ownershipColumns,
} from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { findOwnership } from '../repositories/records.js';
import {
  deleteStandard,
  findStandard,
  insertStandard,
  listStandards,
} from '../repositories/standards.js';
import { NamedListQuery, newNamedColumns } from '../schemas/common.js';
import { StandardInputSchema, StandardSchema, toStandard } from '../schemas/standards.js';

export const standardRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members create standards; their creator, their
  // team and admins delete them.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'standards', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'palette.standard', action: 'read' };
  const CREATE: Access = { resource: 'palette.standard', action: 'create' };
  const DELETE: Access = { resource: 'palette.standard', action: 'delete', rule: 'owner', owner };

  app.get(
    '/standards',
    {
      config: { access: READ },
      schema: {
        operationId: 'listStandards',
        summary: 'List standards by name',
        querystring: NamedListQuery,
        response: responses({ 200: Type.Array(StandardSchema) }),
      },
    },
    async (request) => ok((await listStandards(db, request.query)).map(toStandard)),
  );

  app.post(
    '/standards',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createStandard',
        summary: 'Create a standard',
        body: StandardInputSchema,
        response: responses({ 201: StandardSchema }),
      },
    },
    async (request, reply) => {
      const { name, guidelines = [] } = request.body;
      const owned = await ownershipColumns(request.identity, request.body.team, access);
      const standard = { ...owned, ...newNamedColumns(request.body), guidelines };
      const row = await orConflict(() => insertStandard(db, standard), nameTaken('Standard', name));
      return reply.code(201).send(ok(toStandard(row)));
    },
  );

  app.get(
    '/standards/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getStandard',
        summary: 'Get a standard',
        params: IdOrNameParams,
        response: responses({ 200: StandardSchema }),
      },
    },
    async (request) => ok(toStandard(await findStandard(db, request.params.idOrName))),
  );

  app.delete(
    '/standards/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteStandard',
        summary: 'Delete a standard',
        params: IdOrNameParams,
        response: responses({ 200: StandardSchema }),
      },
    },
    async (request) => {
      const row = await findStandard(db, request.params.idOrName);
      await deleteStandard(db, row.id);
      return ok(toStandard(row));
    },
  );
};
