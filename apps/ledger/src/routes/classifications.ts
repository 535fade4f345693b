import { badRequest, conflict, newId, ok, responses, Type } from '@platform/core';
import {
  deleteClassification,
  findClassification,
  findClassificationOfField,
  insertClassification,
  listClassifications,
} from '../repositories/classifications.js';
import type { LedgerRoutes } from '../domain/state.js';
import {
  ClassificationInputSchema,
  ClassificationListQuery,
  ClassificationParams,
  ClassificationSchema,
  toClassification,
} from '../schemas/classifications.js';

export const classificationRoutes: LedgerRoutes = async (app, { db }) => {
  app.post(
    '/classifications',
    {
      config: { access: { resource: 'ledger.classification', action: 'create', rule: 'admin' } },
      schema: {
        operationId: 'createClassification',
        summary: 'Classify a field of a service',
        description: 'One classification per service and field: a second one is 409 CONFLICT.',
        body: ClassificationInputSchema,
        response: responses({ 201: ClassificationSchema }),
      },
    },
    async (request, reply) => {
      const { serviceId, service, field, level, justification, ppiCategory } = request.body;
      if (serviceId !== undefined && service !== undefined && serviceId !== service)
        throw badRequest('serviceId and service name different services; send one of them');
      const owner = serviceId ?? service;
      if (owner === undefined) throw badRequest('serviceId (or service) is required');
      const row = await insertClassification(db, {
        id: newId(),
        service_id: owner,
        field,
        level,
        justification,
        ppi_category: ppiCategory ?? null,
      });
      if (!row) {
        const existing = await findClassificationOfField(db, owner, field);
        throw conflict(
          `Field ${field} of service ${owner} is classified already${existing ? ` (${existing.id})` : ''}`,
        );
      }
      return reply.code(201).send(ok(toClassification(row)));
    },
  );

  app.get(
    '/classifications',
    {
      config: { access: { resource: 'ledger.classification', action: 'read' } },
      schema: {
        operationId: 'listClassifications',
        summary: 'List field classifications by service and field',
        querystring: ClassificationListQuery,
        response: responses({ 200: Type.Array(ClassificationSchema) }),
      },
    },
    async (request) => {
      const { service, serviceId, level, limit, offset } = request.query;
      if (service !== undefined && serviceId !== undefined && service !== serviceId)
        throw badRequest('service and serviceId name different services; send one of them');
      const filter = { service_id: service ?? serviceId, level };
      const rows = await listClassifications(db, filter, { limit, offset });
      return ok(rows.map(toClassification));
    },
  );

  app.get(
    '/classifications/:id',
    {
      config: { access: { resource: 'ledger.classification', action: 'read' } },
      schema: {
        operationId: 'getClassification',
        summary: 'Get a field classification',
        params: ClassificationParams,
        response: responses({ 200: ClassificationSchema }),
      },
    },
    async (request) => ok(toClassification(await findClassification(db, request.params.id))),
  );

  app.delete(
    '/classifications/:id',
    {
      config: { access: { resource: 'ledger.classification', action: 'delete', rule: 'admin' } },
      schema: {
        operationId: 'deleteClassification',
        summary: 'Delete a field classification',
        description: 'Answers with the deleted classification.',
        params: ClassificationParams,
        response: responses({ 200: ClassificationSchema }),
      },
    },
    async (request) => ok(toClassification(await deleteClassification(db, request.params.id))),
  );
};
