import {
  Instant,
  notFound,
  ok,
  parseInstant,
  responses,
  Type,
  visibleTo,
  type Access,
} from '@platform/core';
import type { InferenceRoutes } from '../domain/state.js';
import {
  findRequest,
  findRequestOwnership,
  listRequests,
  summarize,
} from '../repositories/requests.js';
import { RequestSchema, SummarySchema, toRequest } from '../schemas/usage.js';

/** The request log is private: each caller reads its own calls, admins every call. */
const USAGE: Access = { resource: 'inference.request', action: 'read' };

export const usageRoutes: InferenceRoutes = async (app, { db, access, state }) => {
  // Read-your-writes: this instance's queued log rows are written before any read of the log.
  const { requestLog } = state;
  const ONE: Access = {
    resource: 'inference.request',
    action: 'read',
    rule: 'owner',
    // Written first: a call just made is its caller's, never a row nobody owns yet.
    owner: async (request) => {
      const { id } = request.params as { id?: unknown };
      if (typeof id !== 'string' || id === '') return undefined;
      await requestLog.settled();
      return findRequestOwnership(db, id);
    },
  };
  app.get(
    '/usage',
    {
      config: { access: USAGE },
      schema: {
        operationId: 'getUsage',
        summary: 'Usage summary and the request log, newest first',
        description:
          "The summary covers every request the filters keep (provider, key, app, caller, model, since, until); `requests` the newest `limit` of them. Only the caller's own calls, unless the caller is an admin. Costs in US micro-dollars; cache hits cost 0.",
        querystring: Type.Object({
          provider: Type.Optional(
            Type.String({ minLength: 1, description: 'Provider id or name' }),
          ),
          key: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description: 'The API key id that made them',
            }),
          ),
          app: Type.Optional(
            Type.String({ minLength: 1, maxLength: 200, description: 'The sandbox app charged' }),
          ),
          caller: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 320,
              description: 'Who made them, as createdBy says (any case)',
            }),
          ),
          model: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description: 'The model as named (any case)',
            }),
          ),
          since: Type.Optional(Instant('Requests at or after')),
          until: Type.Optional(Instant('Requests at or before')),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
        }),
        response: responses({
          200: Type.Object({ summary: SummarySchema, requests: Type.Array(RequestSchema) }),
        }),
      },
    },
    async (request) => {
      const { provider, key, app: charged, caller, model, limit } = request.query;
      const since =
        request.query.since === undefined
          ? undefined
          : parseInstant(request.query.since, 'since', 'from');
      const until =
        request.query.until === undefined
          ? undefined
          : parseInstant(request.query.until, 'until', 'to');
      const creators = (await visibleTo(request.identity, access))?.creators;
      const filter = { provider, key, app: charged, caller, model, since, until, creators };
      await requestLog.settled();
      const [totals, rows] = [await summarize(db, filter), await listRequests(db, filter, limit)];
      const input = Number(totals.input);
      const output = Number(totals.output);
      return ok({
        summary: {
          totalRequests: Number(totals.requests),
          totalErrors: Number(totals.errors),
          totalInputTokens: input,
          totalOutputTokens: output,
          totalTokens: input + output,
          avgDurationMs: Number(totals.avg_duration),
          totalAborted: Number(totals.aborted),
          totalCostMicros: Number(totals.cost),
        },
        requests: rows.map(toRequest),
      });
    },
  );

  app.get(
    '/requests/:id',
    {
      config: { access: ONE },
      schema: {
        operationId: 'getRequest',
        summary: 'One request log entry',
        description: 'Its caller and admins only (403 otherwise).',
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        response: responses({ 200: RequestSchema }),
      },
    },
    async (request) => {
      await requestLog.settled();
      const row = await findRequest(db, request.params.id);
      if (!row) throw notFound('Request', request.params.id);
      return ok(toRequest(row));
    },
  );
};
