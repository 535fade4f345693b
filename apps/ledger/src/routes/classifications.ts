import {
  IsoTimestamp,
  PageQuery,
  Type,
  badRequest,
  conflict,
  newId,
  notFound,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import {
  findClassification,
  listClassifications,
  type ClassificationRow,
  type LedgerDb,
} from '../repository.js';

/** From least to most sensitive. */
export const LEVELS = ['public', 'internal', 'confidential', 'pii', 'restricted'] as const;

/** Dotted path of a field: segments of letters, digits, `_`, `-` or `$`, or `*` for any key. */
const FIELD_PATTERN = '^([A-Za-z0-9_$-]+|\\*)(\\.([A-Za-z0-9_$-]+|\\*))*$';

const ServiceName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, description });

const ClassificationInput = Type.Object({
  serviceId: Type.Optional(ServiceName('The service the field belongs to (or send service)')),
  service: Type.Optional(ServiceName('Same as serviceId')),
  field: Type.String({
    pattern: FIELD_PATTERN,
    maxLength: 300,
    title: 'field',
    description: 'Dotted path of the field, e.g. user.email or items.*.price',
  }),
  level: Type.Enum([...LEVELS], { title: 'level', description: LEVELS.join(' < ') }),
  justification: Type.String({
    minLength: 1,
    maxLength: 2000,
    title: 'justification',
    description: 'Why the field has this level',
  }),
  ppiCategory: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Kind of personal data, e.g. email, name, financial',
    }),
  ),
});

const Classification = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  service: Type.String({ description: 'Same as serviceId' }),
  field: Type.String(),
  level: Type.Enum([...LEVELS]),
  justification: Type.String(),
  ppiCategory: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});

const toClassification = (row: ClassificationRow): Static<typeof Classification> => ({
  id: row.id,
  serviceId: row.service_id,
  service: row.service_id,
  field: row.field,
  level: row.level as (typeof LEVELS)[number],
  justification: row.justification,
  ppiCategory: row.ppi_category,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const IdParams = Type.Object({ id: Type.String() });
const tags = ['ledger'];

export const classificationRoutes: FastifyPluginAsyncTypebox<{ ledger: LedgerDb }> = async (
  app,
  { ledger },
) => {
  const find = async (id: string) => {
    const row = await findClassification(ledger, id);
    if (!row) throw notFound('Classification', id);
    return row;
  };

  app.post(
    '/classifications',
    {
      schema: {
        tags,
        summary: 'Classify a field of a service',
        description: 'One classification per service and field: a second one is 409 CONFLICT.',
        body: ClassificationInput,
        response: responses({ 201: Classification }),
      },
    },
    async (request, reply) => {
      const { serviceId, service, field, level, justification, ppiCategory } = request.body;
      if (serviceId !== undefined && service !== undefined && serviceId !== service)
        throw badRequest('serviceId and service name different services; send one of them');
      const owner = serviceId ?? service;
      if (owner === undefined) throw badRequest('serviceId (or service) is required');
      const row = await ledger
        .insertInto('classifications')
        .values({
          id: newId(),
          service_id: owner,
          field,
          level,
          justification,
          ppi_category: ppiCategory ?? null,
        })
        .onConflict((oc) => oc.columns(['service_id', 'field']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) {
        const existing = await ledger
          .selectFrom('classifications')
          .select('id')
          .where('service_id', '=', owner)
          .where('field', '=', field)
          .executeTakeFirst();
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
      schema: {
        tags,
        summary: 'List field classifications by service and field',
        querystring: Type.Object({
          service: Type.Optional(
            Type.String({ description: 'Only fields of this service (its id)' }),
          ),
          serviceId: Type.Optional(Type.String({ description: 'Same as service' })),
          level: Type.Optional(Type.Enum([...LEVELS])),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Classification) }),
      },
    },
    async (request) => {
      const { service, serviceId, level, limit, offset } = request.query;
      if (service !== undefined && serviceId !== undefined && service !== serviceId)
        throw badRequest('service and serviceId name different services; send one of them');
      const rows = await listClassifications(
        ledger,
        { serviceId: service ?? serviceId, level },
        { limit, offset },
      );
      return ok(rows.map(toClassification));
    },
  );

  app.get(
    '/classifications/:id',
    {
      schema: {
        tags,
        summary: 'Get a field classification',
        params: IdParams,
        response: responses({ 200: Classification }),
      },
    },
    async (request) => ok(toClassification(await find(request.params.id))),
  );

  app.delete(
    '/classifications/:id',
    {
      schema: {
        tags,
        summary: 'Delete a field classification',
        description: 'Answers with the deleted classification.',
        params: IdParams,
        response: responses({ 200: Classification }),
      },
    },
    async (request) => {
      const row = await ledger
        .deleteFrom('classifications')
        .where('id', '=', request.params.id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Classification', request.params.id);
      return ok(toClassification(row));
    },
  );
};
