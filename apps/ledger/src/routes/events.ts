import {
  Instant,
  IsoTimestamp,
  PageQuery,
  Type,
  badRequest,
  newId,
  notFound,
  ok,
  parseRange,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import type { ChainAppender } from '../appender.js';
import { findEvent, listEvents, type EventRow, type LedgerDb } from '../repository.js';
import { verifyChain } from '../verify.js';

/** How far ahead of the server's clock a client's timestamp may be. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const Text = (title: string, description: string, maxLength = 200) =>
  Type.String({ minLength: 1, maxLength, title, description });
const Json = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

const EventInput = Type.Object({
  action: Text('action field', 'What was done, e.g. user.login or policy.deleted'),
  actor: Type.Optional(Text('actor', 'Who did it (erased by an anonymizing policy)')),
  resource: Type.Optional(Text('resource', 'What it was done to', 500)),
  service: Type.Optional(Text('service', 'Which service reports it', 100)),
  metadata: Type.Optional(Json('Free-form context (erased by an anonymizing policy)')),
  details: Type.Optional(Json('Free-form details (erased by an anonymizing policy)')),
  timestamp: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'When it happened, if not now (at most 5 minutes ahead of the server). Retention counts from it; the chain order is the order of arrival.',
    }),
  ),
});

export const AuditEvent = Type.Object({
  id: Type.String(),
  action: Type.String(),
  actor: Type.Union([Type.String(), Type.Null()]),
  resource: Type.Union([Type.String(), Type.Null()]),
  service: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  details: Type.Record(Type.String(), Type.Unknown()),
  timestamp: IsoTimestamp,
  seq: Type.Integer({ description: 'Position in the chain (1 for the first event ever)' }),
  hash: Type.String({ description: 'SHA-256 of the event and the hash before it (hex)' }),
  prevHash: Type.String({ description: 'Hash of the event before it in the chain' }),
  anonymized: Type.Boolean({
    description: 'Whether a retention policy erased its personal fields',
  }),
});

const VerifyResultSchema = Type.Object({
  valid: Type.Boolean(),
  checked: Type.Integer({ description: 'Events checked' }),
  firstInvalidId: Type.Union([Type.String(), Type.Null()], {
    description:
      'The first event that does not verify; null when valid or when the end of the chain is missing',
  }),
  reason: Type.Union([Type.String(), Type.Null()]),
  checkpoints: Type.Integer({
    description: 'Retention gaps crossed, each vouched for by a checkpoint',
  }),
  head: Type.Object(
    { seq: Type.Integer(), hash: Type.String() },
    {
      description:
        'The last link of the chain: keep it elsewhere to detect a rewrite of the whole chain',
    },
  ),
});

const ListQuery = Type.Object({
  action: Type.Optional(Type.String({ description: 'Only events with this action' })),
  actor: Type.Optional(Type.String({ description: 'Only events of this actor' })),
  resource: Type.Optional(Type.String({ description: 'Only events on this resource' })),
  service: Type.Optional(Type.String({ description: 'Only events reported by this service' })),
  from: Type.Optional(Instant('Events at or after')),
  to: Type.Optional(Instant('Events at or before')),
  ...PageQuery,
});

export const toAuditEvent = (row: EventRow): Static<typeof AuditEvent> => ({
  id: row.id,
  action: row.action,
  actor: row.actor,
  resource: row.resource,
  service: row.service,
  metadata: row.metadata,
  details: row.details,
  timestamp: row.timestamp.toISOString(),
  seq: row.seq,
  hash: row.hash,
  prevHash: row.prev_hash,
  anonymized: row.anonymized_at !== null,
});

function timestampOf(input: string | undefined, now: Date): Date {
  if (input === undefined) return now;
  const timestamp = new Date(input);
  if (timestamp.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS)
    throw badRequest('timestamp must not be in the future');
  return timestamp;
}

const tags = ['ledger'];

export const eventRoutes: FastifyPluginAsyncTypebox<{
  ledger: LedgerDb;
  appender: ChainAppender;
}> = async (app, { ledger, appender }) => {
  app.post(
    '/events',
    {
      schema: {
        tags,
        summary: 'Record an audit event',
        description:
          'Appends the event to the hash chain. Events are never updated or deleted by the API; only retention policies remove or anonymize them.',
        body: EventInput,
        response: responses({ 201: AuditEvent }),
      },
    },
    async (request, reply) => {
      const { action, actor, resource, service, metadata, details } = request.body;
      const row = await appender.append({
        id: newId(),
        action,
        actor: actor ?? null,
        resource: resource ?? null,
        service: service ?? null,
        metadata: metadata ?? {},
        details: details ?? {},
        timestamp: timestampOf(request.body.timestamp, new Date()),
      });
      return reply.code(201).send(ok(toAuditEvent(row)));
    },
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        summary: 'List audit events, newest first',
        querystring: ListQuery,
        response: responses({ 200: Type.Array(AuditEvent) }),
      },
    },
    async (request) => {
      const { action, actor, resource, service, limit, offset } = request.query;
      const rows = await listEvents(
        ledger,
        { action, actor, resource, service, ...parseRange(request.query) },
        { limit, offset },
      );
      return ok(rows.map(toAuditEvent));
    },
  );

  app.get(
    '/events/verify',
    {
      schema: {
        tags,
        summary: 'Verify the hash chain',
        description:
          'Re-computes every hash from the first event to the head and checks each link; names the first event that does not verify.',
        response: responses({ 200: VerifyResultSchema }),
      },
    },
    async () => ok(await verifyChain(ledger)),
  );

  app.get(
    '/events/:id',
    {
      schema: {
        tags,
        summary: 'Get one audit event',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: AuditEvent }),
      },
    },
    async (request) => {
      const row = await findEvent(ledger, request.params.id);
      if (!row) throw notFound('Audit event', request.params.id);
      return ok(toAuditEvent(row));
    },
  );
};
