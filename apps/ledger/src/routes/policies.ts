import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
} from '@platform/core';
import { deletePolicy, findPolicy, insertPolicy, listPolicies } from '../repositories/policies.js';
import { applyPolicy } from '../domain/retention.js';
import type { LedgerRoutes } from '../domain/state.js';
import {
  ApplyResultSchema,
  PolicyInputSchema,
  PolicyListQuery,
  PolicySchema,
  parseScope,
  toPolicy,
} from '../schemas/policies.js';

export const policyRoutes: LedgerRoutes = async (app, { db }) => {
  app.post(
    '/policies',
    {
      config: { access: { resource: 'ledger.policy', action: 'create', rule: 'admin' } },
      schema: {
        operationId: 'createPolicy',
        summary: 'Create a retention policy',
        description: 'Names are unique case-insensitively: a second one is 409 CONFLICT.',
        body: PolicyInputSchema,
        response: responses({ 201: PolicySchema }),
      },
    },
    async (request, reply) => {
      const { name, retentionDays, scope = 'all', service, action = 'delete' } = request.body;
      const parsed = parseScope(scope);
      if (parsed?.kind === 'service' && service !== undefined && service !== parsed.value)
        throw badRequest(`service ${service} contradicts scope ${scope}`);
      const row = await orConflict(
        () =>
          insertPolicy(db, {
            id: newId(),
            name,
            retention_days: retentionDays,
            scope,
            service: service ?? null,
            action,
          }),
        nameTaken('Retention policy', name),
      );
      return reply.code(201).send(ok(toPolicy(row)));
    },
  );

  app.get(
    '/policies',
    {
      config: { access: { resource: 'ledger.policy', action: 'read', rule: 'admin' } },
      schema: {
        operationId: 'listPolicies',
        summary: 'List retention policies by name',
        querystring: PolicyListQuery,
        response: responses({ 200: Type.Array(PolicySchema) }),
      },
    },
    async (request) => {
      const { service, action, limit, offset } = request.query;
      const rows = await listPolicies(db, { service, action }, { limit, offset });
      return ok(rows.map(toPolicy));
    },
  );

  app.get(
    '/policies/:idOrName',
    {
      config: { access: { resource: 'ledger.policy', action: 'read', rule: 'admin' } },
      schema: {
        operationId: 'getPolicy',
        summary: 'Get a retention policy',
        params: IdOrNameParams,
        response: responses({ 200: PolicySchema }),
      },
    },
    async (request) => ok(toPolicy(await findPolicy(db, request.params.idOrName))),
  );

  app.delete(
    '/policies/:idOrName',
    {
      config: { access: { resource: 'ledger.policy', action: 'delete', rule: 'admin' } },
      schema: {
        operationId: 'deletePolicy',
        summary: 'Delete a retention policy',
        description: 'Answers with the deleted policy. Events it already removed stay removed.',
        params: IdOrNameParams,
        response: responses({ 200: PolicySchema }),
      },
    },
    async (request) => ok(toPolicy(await deletePolicy(db, request.params.idOrName))),
  );

  app.post(
    '/policies/:idOrName/apply',
    {
      config: { access: { resource: 'ledger.policy', action: 'manage', rule: 'admin' } },
      schema: {
        operationId: 'applyPolicy',
        summary: 'Apply a retention policy now',
        description: 'Deletes or anonymizes the events it covers and says how many.',
        params: IdOrNameParams,
        response: responses({ 200: ApplyResultSchema }),
      },
    },
    async (request) => ok(await applyPolicy(db, await findPolicy(db, request.params.idOrName))),
  );
};
