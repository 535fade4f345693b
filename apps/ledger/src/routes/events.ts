import {
  badRequest,
  describeIdentity,
  newId,
  ok,
  parseRange,
  responses,
  Type,
  type Access,
  type Identity,
} from '@platform/core';
import type { LedgerRoutes } from '../domain/state.js';
import { findEvent, listEvents } from '../repositories/events.js';
import {
  AuditEventSchema,
  EventInputSchema,
  EventListQuery,
  EventParams,
  toAuditEvent,
  VerifyResultSchema,
  type EventInput,
} from '../schemas/events.js';
import { verifyChain } from '../domain/verify.js';

/** When the event happened: now, or the client's time if it is at most 5 minutes ahead of ours. */
function timestampOf(input: string | undefined): Date {
  if (input === undefined) return new Date();
  const timestamp = new Date(input);
  if (timestamp.getTime() > Date.now() + 5 * 60_000)
    throw badRequest('timestamp must not be in the future');
  return timestamp;
}

/** The audit trail is the admins' to read. */
const READ: Access = { resource: 'ledger.event', action: 'read', rule: 'admin' };

/**
 * Who did it and when, as the platform knows it: a platform service's word (it records what a
 * person did, for them); anyone else is the actor, now. What such a caller claims instead is
 * kept apart, in `details.claimed`. Authentication off: the client's word, as before.
 */
function provenance(identity: Identity, authOn: boolean, body: EventInput) {
  const timestamp = timestampOf(body.timestamp);
  if (!authOn || identity.kind === 'service')
    return {
      actor: body.actor ?? (authOn ? describeIdentity(identity) : null),
      timestamp,
      claimed: undefined,
    };
  const actor = describeIdentity(identity);
  const claimed = {
    ...(body.actor !== undefined && body.actor !== actor ? { actor: body.actor } : {}),
    ...(body.timestamp !== undefined ? { timestamp: body.timestamp } : {}),
  };
  return {
    actor,
    timestamp: new Date(),
    claimed: Object.keys(claimed).length > 0 ? claimed : undefined,
  };
}

export const eventRoutes: LedgerRoutes = async (app, { db, config, auth, state }) => {
  const { appender } = state;

  app.post(
    '/events',
    {
      // An event recorded is the trail itself, not a change to audit again.
      config: { access: { resource: 'ledger.event', action: 'create' }, audit: false },
      schema: {
        operationId: 'createEvent',
        summary: 'Record an audit event',
        description:
          "Appends the event to the hash chain. Events are never updated or deleted by the API; only retention policies remove or anonymize them. The actor and the time are the platform's: the caller (a platform service names the person it acts for) and now; an `actor` or `timestamp` sent by anyone but a platform service is kept as a claim in `details.claimed`.",
        body: EventInputSchema,
        response: responses({ 201: AuditEventSchema }),
      },
    },
    async (request, reply) => {
      const { action, resource, service, metadata, details } = request.body;
      const { actor, timestamp, claimed } = provenance(
        request.identity,
        auth.enabled,
        request.body,
      );
      const row = await appender.append({
        id: newId(),
        action,
        actor,
        resource: resource ?? null,
        service: service ?? null,
        metadata: metadata ?? {},
        details: claimed ? { ...details, claimed } : (details ?? {}),
        timestamp,
      });
      return reply.code(201).send(ok(toAuditEvent(row)));
    },
  );

  app.get(
    '/events',
    {
      config: { access: READ },
      schema: {
        operationId: 'listEvents',
        summary: 'List audit events, newest first',
        description:
          'Newest first (by timestamp, then by place in the chain), filtered by `action`, `actor`, `resource`, `service`, `from` and `to`. With `afterSeq`, the events whose `seq` is greater than it, oldest first in chain order (`seq` ascending), with the same filters and `limit`: a reader following the trail passes the last `seq` it has seen.',
        querystring: EventListQuery,
        response: responses({ 200: Type.Array(AuditEventSchema) }),
      },
    },
    async (request) => {
      const { action, actor, resource, service, afterSeq, limit, offset } = request.query;
      const rows = await listEvents(
        db,
        { action, actor, resource, service, afterSeq, ...parseRange(request.query) },
        { limit, offset },
      );
      return ok(rows.map(toAuditEvent));
    },
  );

  app.get(
    '/events/verify',
    {
      config: { access: READ },
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
      config: { access: READ },
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
