import {
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { unique } from '../domain/records.js';
import { toStandard } from '../mappers.js';
import {
  deleteStandard,
  findStandard,
  insertStandard,
  listStandards,
} from '../repositories/standards.js';
import { NamedListQuery } from '../schemas/common.js';
import { StandardInputSchema, StandardSchema } from '../schemas/standards.js';

export const standardRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  app.get(
    '/standards',
    {
      schema: {
        operationId: 'listStandards',
        summary: 'List standards by name',
        querystring: NamedListQuery,
        response: responses({ 200: Type.Array(StandardSchema) }),
      },
    },
    async (request) => {
      const { category, tag, limit, offset } = request.query;
      return ok((await listStandards(db, { category, tag }, { limit, offset })).map(toStandard));
    },
  );

  app.post(
    '/standards',
    {
      schema: {
        operationId: 'createStandard',
        summary: 'Create a standard',
        body: StandardInputSchema,
        response: responses({ 201: StandardSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await orConflict(
        insertStandard(db, {
          name: body.name,
          category: body.category ?? null,
          description: body.description ?? null,
          guidelines: body.guidelines ?? [],
          tags: unique(body.tags ?? []),
        }),
        nameTaken('Standard', body.name),
      );
      return reply.code(201).send(ok(toStandard(row)));
    },
  );

  app.get(
    '/standards/:idOrName',
    {
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
