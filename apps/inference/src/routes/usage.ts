import {
  Instant,
  notFound,
  ok,
  parseInstant,
  responses,
  Type,
  visibleTo,
  type Access,
  type ServiceRoutes,
} from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { InferenceDatabase, RequestRow } from '../database.js';
import {
  findRequest,
  findRequestOwnership,
  listRequests,
  summarize,
} from '../repositories/requests.js';
import { sharedOf } from './context.js';

const Int = Type.Integer();
const RequestSchema = Type.Object({
  id: Type.String(),
  providerId: Type.Union([Type.String(), Type.Null()]),
  provider: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
  kind: Type.String({ description: 'chat, stream, embed, image or transcribe' }),
  status: Type.String({ description: 'ok, error or aborted (the client left)' }),
  inputTokens: Type.Union([Int, Type.Null()]),
  outputTokens: Type.Union([Int, Type.Null()]),
  estimated: Type.Boolean({ description: 'The provider reported no usage: tokens estimated' }),
  attempts: Int,
  durationMs: Int,
  timeToFirstTokenMs: Type.Union([Int, Type.Null()]),
  costMicros: Type.Union([Int, Type.Null()], {
    description: 'US micro-dollars; null when the model has no price',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  app: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()], {
    description:
      'Who made the call: an email, key:<name> for a team key; null for calls logged before ownership',
  }),
  created: Type.String({ format: 'date-time' }),
});

const SummarySchema = Type.Object({
  totalRequests: Int,
  totalErrors: Int,
  totalInputTokens: Int,
  totalOutputTokens: Int,
  totalTokens: Int,
  avgDurationMs: Int,
  totalAborted: Int,
  totalCostMicros: Int,
});

const toRequest = (r: RequestRow) => ({
  id: r.id,
  providerId: r.provider_id,
  provider: r.provider,
  model: r.model,
  kind: r.kind,
  status: r.status,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  estimated: r.estimated,
  attempts: r.attempts,
  durationMs: r.duration_ms,
  timeToFirstTokenMs: r.ttft_ms,
  costMicros: r.cost_micros === null ? null : Number(r.cost_micros),
  error: r.error,
  requestId: r.request_id,
  app: r.app,
  createdBy: r.created_by,
  created: r.created_at.toISOString(),
});

/** The request log is private: each caller reads its own calls, admins every call. */
const USAGE: Access = { resource: 'inference.request', action: 'read' };

export const usageRoutes: ServiceRoutes<InferenceDatabase, InferenceConfig> = async (
  app,
  { db, access },
) => {
  // Read-your-writes: this instance's queued log rows are written before any read of the log.
  const { requestLog } = sharedOf(db, app);
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
          "The summary covers every request the filters keep; `requests` the newest `limit` of them. Only the caller's own calls, unless the caller is an admin.",
        querystring: Type.Object({
          provider: Type.Optional(
            Type.String({ minLength: 1, description: 'Provider id or name' }),
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
      const { provider, limit } = request.query;
      const since =
        request.query.since === undefined
          ? undefined
          : parseInstant(request.query.since, 'since', 'from');
      const until =
        request.query.until === undefined
          ? undefined
          : parseInstant(request.query.until, 'until', 'to');
      const creators = (await visibleTo(request.identity, access))?.creators;
      const filter = { provider, since, until, creators };
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
