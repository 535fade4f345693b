import { newId, notFound, ok, parseRange, responses, Type, type Access } from '@platform/core';
import {
  findEvent,
  insertEvent,
  insertEvents,
  listEvents,
  type NewEvent,
} from '../repositories/events.js';
import {
  BatchResultSchema,
  BatchSchema,
  EventInputSchema,
  EventListQuery,
  EventParams,
  EventSchema,
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  toEvent,
  type EventInput,
} from '../schemas/events.js';
import type { PulseRoutes } from '../domain/state.js';

const toNewEvent = (input: EventInput, receivedAt: Date): NewEvent => ({
  id: input.id ?? newId(),
  name: input.name,
  properties: input.properties ?? {},
  user_id: input.userId ?? null,
  session_id: input.sessionId ?? null,
  timestamp: input.timestamp ? new Date(input.timestamp) : receivedAt,
});

/** Sending events: what a `pulse:ingest` key (safe to ship in a browser or an app) may do. */
const INGEST: Access = { resource: 'pulse.event', action: 'ingest', scope: 'pulse:ingest' };
const READ: Access = { resource: 'pulse.event', action: 'read' };

export const eventRoutes: PulseRoutes = async (app, { db }) => {
  app.post(
    '/events',
    {
      config: { access: INGEST },
      schema: {
        operationId: 'trackEvent',
        summary: 'Track one event',
        description:
          'Answers 201 with the stored event, or 200 with the stored one when its id was sent before.',
        body: EventInputSchema,
        response: responses({ 200: EventSchema, 201: EventSchema }),
      },
    },
    async (request, reply) => {
      const event = toNewEvent(request.body, new Date());
      const stored = await insertEvent(db, event);
      if (stored) return reply.code(201).send(ok(toEvent(stored)));
      // The id was sent before: answer with what is stored, as a retry expects.
      const existing = await findEvent(db, event.id);
      if (!existing) throw notFound('Event', event.id);
      return ok(toEvent(existing));
    },
  );

  app.post(
    '/events/batch',
    {
      bodyLimit: MAX_BATCH_BYTES,
      config: {
        bodyTooLargeMessage: `A batch may be at most ${MAX_BATCH_BYTES} bytes (1 MiB)`,
        access: INGEST,
      },
      schema: {
        operationId: 'trackEvents',
        summary: 'Track a batch of events',
        description:
          `Up to ${MAX_BATCH_EVENTS} events and 1 MiB. An invalid item rejects the whole batch, naming its index and field. ` +
          'ingested counts the events stored now; duplicates counts those whose id was stored before (safe retries).',
        body: BatchSchema,
        response: responses({ 201: BatchResultSchema }),
      },
    },
    async (request, reply) => {
      const receivedAt = new Date();
      const events = request.body.events.map((input) => toNewEvent(input, receivedAt));
      const stored = await insertEvents(db, events);
      return reply
        .code(201)
        .send(ok({ ingested: stored.size, duplicates: events.length - stored.size }));
    },
  );

  app.get(
    '/events',
    {
      config: { access: READ },
      schema: {
        operationId: 'listEvents',
        summary: 'List events, newest first',
        querystring: EventListQuery,
        response: responses({ 200: Type.Array(EventSchema) }),
      },
    },
    async (request) => {
      const { name, userId, sessionId, limit, offset } = request.query;
      const rows = await listEvents(
        db,
        { name, userId, sessionId, ...parseRange(request.query) },
        { limit, offset },
      );
      return ok(rows.map(toEvent));
    },
  );

  app.get(
    '/events/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getEvent',
        summary: 'Get one event',
        params: EventParams,
        response: responses({ 200: EventSchema }),
      },
    },
    async (request) => {
      const row = await findEvent(db, request.params.id);
      if (!row) throw notFound('Event', request.params.id);
      return ok(toEvent(row));
    },
  );
};
