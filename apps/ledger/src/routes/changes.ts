import { ApiError, ok, responses } from '@platform/core';
import type { LedgerRoutes } from '../domain/state.js';
import { appendOnce } from '../domain/appender.js';
import { ChangesInputSchema, ChangesResultSchema, type Change } from '../schemas/changes.js';

/** The ledger event a change becomes: what the outbox knew, no body, no secret. */
const toEvent = (change: Change) => ({
  id: change.id,
  action: change.action,
  actor: change.actor,
  resource: change.resource,
  service: change.service,
  metadata: {
    outcome: change.outcome,
    actorKind: change.actorKind,
    method: change.method,
    route: change.route,
    statusCode: change.statusCode,
    requestId: change.requestId,
  },
  details: {},
  timestamp: new Date(change.timestamp),
});

export const changeRoutes: LedgerRoutes = async (app, { db, auth }) => {
  app.post(
    '/changes',
    {
      config: {
        access: { resource: 'ledger.event', action: 'create', rule: 'admin' },
        // The trail's own appends are not changes to audit.
        audit: false,
      },
      schema: {
        operationId: 'recordChanges',
        summary: "Record the platform's changes (the services' audit outboxes)",
        description:
          "What every service's audit outbox delivers: one event per state-changing request, appended in the order given, each id once (a redelivery appends nothing). Platform services only (their signed identity); 403 for anyone else when authentication is on.",
        body: ChangesInputSchema,
        response: responses({ 200: ChangesResultSchema }),
      },
    },
    async (request) => {
      if (auth.enabled && request.identity.kind !== 'service')
        throw new ApiError(
          'FORBIDDEN',
          'Only platform services record changes; send events to POST /events',
        );
      const { events } = request.body;
      // A service records its own changes only (the relay sends them as that service).
      const identity = request.identity;
      const foreign =
        auth.enabled && identity.kind === 'service'
          ? events.filter((e) => e.service !== identity.name)
          : [];
      if (foreign.length > 0)
        throw new ApiError(
          'FORBIDDEN',
          `${identity.kind === 'service' ? identity.name : 'A service'} may record only its own changes, not ${foreign[0].service}'s`,
        );
      const appended = await appendOnce(db, events.map(toEvent));
      return ok({ received: events.length, appended: appended.length });
    },
  );
};
