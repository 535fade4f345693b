import { badRequest, newId, ok, parseRange, responses, Type } from '@platform/core';
import { ChainAppender } from '../appender.js';
import type { EventRow, LedgerRoutes } from '../database.js';
import { findEvent, listEvents } from '../repositories/events.js';
import {
  AuditEventSchema,
  EventInputSchema,
  EventListQuery,
  EventParams,
  VerifyResultSchema,
  type AuditEvent,
} from '../schemas/events.js';
import { verifyChain } from '../verify.js';

// Field by field: the row also holds personal_hash, a hash of the actor and metadata that a
// client must not get to test guesses against.
const toAuditEvent = (row: EventRow): AuditEvent => ({
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

/** When the event happened: now, or the client's time if it is at most 5 minutes ahead of ours. */
function timestampOf(input: string | undefined): Date {
  if (input === undefined) return new Date();
  const timestamp = new Date(input);
  if (timestamp.getTime() > Date.now() + 5 * 60_000)
    throw badRequest('timestamp must not be in the future');
  return timestamp;
}

export const eventRoutes: LedgerRoutes = async (app, { db, config }) => {
  const appender = new ChainAppender(db);
  // Acknowledged appends are written before the database closes.
  app.addHook('onClose', () => appender.drain());

  app.post(
    '/events',
    {
      schema: {
        operationId: 'createEvent',
        summary: 'Record an audit event',
        description:
          'Appends the event to the hash chain. Events are never updated or deleted by the API; only retention policies remove or anonymize them.',
        body: EventInputSchema,
        response: responses({ 201: AuditEventSchema }),
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
        timestamp: timestampOf(request.body.timestamp),
      });
      return reply.code(201).send(ok(toAuditEvent(row)));
    },
  );

  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'List audit events, newest first',
        querystring: EventListQuery,
        response: responses({ 200: Type.Array(AuditEventSchema) }),
      },
    },
    async (request) => {
      const { action, actor, resource, service, limit, offset } = request.query;
      const rows = await listEvents(
        db,
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
        operationId: 'verifyEvents',
        summary: 'Verify the hash chain',
        description:
          'Re-computes every hash from the first event to the head and checks each link, and checks every signed chain head (signature and hash) as it passes it; names the first event or signed head that does not verify.',
        response: responses({ 200: VerifyResultSchema }),
      },
    },
    async () =>
      ok(await verifyChain(db, { key: config.signingKey, intervalMs: config.signingIntervalMs })),
  );

  app.get(
    '/events/:id',
    {
      schema: {
        operationId: 'getEvent',
        summary: 'Get one audit event',
        params: EventParams,
        response: responses({ 200: AuditEventSchema }),
      },
    },
    async (request) => ok(toAuditEvent(await findEvent(db, request.params.id))),
  );
};
