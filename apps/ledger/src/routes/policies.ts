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
import { selectByIdOrName, sql } from '@platform/db';
import { listPolicies, type LedgerDb, type PolicyRow } from '../repository.js';
import { applyPolicy, parseScope } from '../retention.js';

export const POLICY_ACTIONS = ['delete', 'anonymize'] as const;
const SCOPE_PATTERN = '^(all|service:.+|action:.+)$';

const PolicyInput = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    title: 'policy name',
    description: 'Unique, case-insensitively',
  }),
  retentionDays: Type.Integer({
    minimum: 1,
    maximum: 36500,
    title: 'retentionDays',
    description: 'Events older than this many days are deleted or anonymized',
  }),
  scope: Type.Optional(
    Type.String({
      pattern: SCOPE_PATTERN,
      maxLength: 300,
      default: 'all',
      description:
        'Which events: all, service:<service>, or action:<action> (a trailing * matches a prefix, e.g. action:user.*)',
    }),
  ),
  service: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only events reported by this service',
    }),
  ),
  action: Type.Optional(
    Type.Enum([...POLICY_ACTIONS], {
      default: 'delete',
      description:
        'delete removes the events; anonymize erases actor, metadata and details and keeps the rest',
    }),
  ),
});

const Policy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  retentionDays: Type.Integer(),
  scope: Type.String(),
  service: Type.Union([Type.String(), Type.Null()]),
  action: Type.Enum([...POLICY_ACTIONS]),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  lastAppliedAt: Type.Union([IsoTimestamp, Type.Null()]),
  lastAffected: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Events deleted or anonymized by the last run',
  }),
});

const ApplyResult = Type.Object({
  policy: Type.String(),
  action: Type.Enum([...POLICY_ACTIONS]),
  cutoff: Type.String({ description: 'Events before this instant were covered' }),
  deleted: Type.Integer(),
  anonymized: Type.Integer(),
});

const IdOrName = Type.Object({ idOrName: Type.String() });

const toPolicy = (row: PolicyRow): Static<typeof Policy> => ({
  id: row.id,
  name: row.name,
  retentionDays: row.retention_days,
  scope: row.scope,
  service: row.service,
  action: row.action,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  lastAppliedAt: row.last_applied_at?.toISOString() ?? null,
  lastAffected: row.last_affected,
});

const tags = ['ledger'];

export const policyRoutes: FastifyPluginAsyncTypebox<{ ledger: LedgerDb }> = async (
  app,
  { ledger },
) => {
  const find = async (idOrName: string) => {
    const row = await selectByIdOrName<PolicyRow>(ledger, 'policies', idOrName);
    if (!row) throw notFound('Retention policy', idOrName);
    return row;
  };

  app.post(
    '/policies',
    {
      schema: {
        tags,
        summary: 'Create a retention policy',
        body: PolicyInput,
        response: responses({ 201: Policy }),
      },
    },
    async (request, reply) => {
      const { name, retentionDays, scope = 'all', service, action = 'delete' } = request.body;
      const parsed = parseScope(scope);
      if (parsed?.kind === 'service' && service !== undefined && service !== parsed.value)
        throw badRequest(`service ${service} contradicts scope ${scope}`);
      const row = await ledger
        .insertInto('policies')
        .values({
          id: newId(),
          name,
          retention_days: retentionDays,
          scope,
          service: service ?? null,
          action,
        })
        .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw conflict(`A retention policy named ${name} exists already`);
      return reply.code(201).send(ok(toPolicy(row)));
    },
  );

  app.get(
    '/policies',
    {
      schema: {
        tags,
        summary: 'List retention policies by name',
        querystring: Type.Object({
          service: Type.Optional(Type.String({ description: 'Only policies on this service' })),
          action: Type.Optional(Type.Enum([...POLICY_ACTIONS])),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Policy) }),
      },
    },
    async (request) => {
      const { service, action, limit, offset } = request.query;
      return ok((await listPolicies(ledger, { service, action }, { limit, offset })).map(toPolicy));
    },
  );

  app.get(
    '/policies/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a retention policy',
        params: IdOrName,
        response: responses({ 200: Policy }),
      },
    },
    async (request) => ok(toPolicy(await find(request.params.idOrName))),
  );

  app.delete(
    '/policies/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete a retention policy',
        description: 'Answers with the deleted policy. Events it already removed stay removed.',
        params: IdOrName,
        response: responses({ 200: Policy }),
      },
    },
    async (request) => {
      const row = await find(request.params.idOrName);
      await ledger.deleteFrom('policies').where('id', '=', row.id).execute();
      return ok(toPolicy(row));
    },
  );

  app.post(
    '/policies/:idOrName/apply',
    {
      schema: {
        tags,
        summary: 'Apply a retention policy now',
        description: 'Deletes or anonymizes the events it covers and says how many.',
        params: IdOrName,
        response: responses({ 200: ApplyResult }),
      },
    },
    async (request) => ok(await applyPolicy(ledger, await find(request.params.idOrName))),
  );
};
