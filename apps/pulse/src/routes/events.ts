import {
  Instant,
  IsoTimestamp,
  MiB,
  PageQuery,
  Type,
  newId,
  notFound,
  ok,
  parseRange,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import {
  findEvent,
  insertEvent,
  insertEvents,
  listEvents,
  type EventRow,
  type NewEvent,
  type PulseDb,
} from '../repository.js';

const Text = (title: string, description: string) =>
  Type.String({ minLength: 1, maxLength: 200, title, description });

export const EventInputSchema = Type.Object({
  id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      description:
        'Client-chosen id (1-64 of A-Z a-z 0-9 _ -). Re-sending an event with an id already stored does not store it again.',
    }),
  ),
  name: Text('event name', 'What happened, e.g. page_view'),
  properties: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form event data' }),
  ),
  userId: Type.Optional(Text('user id', 'Who did it')),
  sessionId: Type.Optional(Text('session id', 'In which session')),
  timestamp: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'When it happened; defaults to the time received',
    }),
  ),
});

export const EventSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  properties: Type.Record(Type.String(), Type.Unknown()),
  userId: Type.Union([Type.String(), Type.Null()]),
  sessionId: Type.Union([Type.String(), Type.Null()]),
  timestamp: IsoTimestamp,
});

export const MAX_BATCH_EVENTS = 1000;
export const MAX_BATCH_BYTES = MiB;

const BatchSchema = Type.Object({
  events: Type.Array(EventInputSchema, {
    minItems: 1,
    maxItems: MAX_BATCH_EVENTS,
    description: `1 to ${MAX_BATCH_EVENTS} events; a batch is stored whole or not at all`,
  }),
});

const ListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Only events with this name' })),
  userId: Type.Optional(Type.String({ description: 'Only events of this user' })),
  sessionId: Type.Optional(Type.String({ description: 'Only events of this session' })),
  from: Type.Optional(Instant('Events at or after')),
  to: Type.Optional(Instant('Events at or before')),
  ...PageQuery,
});

export const toEvent = (row: EventRow): Static<typeof EventSchema> => ({
  id: row.id,
  name: row.name,
  properties: row.properties,
  userId: row.user_id,
  sessionId: row.session_id,
  timestamp: row.timestamp.toISOString(),
});

function toNewEvent(input: Static<typeof EventInputSchema>, receivedAt: Date): NewEvent {
  return {
    id: input.id ?? newId(),
    name: input.name,
    properties: input.properties ?? {},
    userId: input.userId ?? null,
    sessionId: input.sessionId ?? null,
    timestamp: input.timestamp ? new Date(input.timestamp) : receivedAt,
  };
}

const tags = ['pulse'];

export const eventRoutes: FastifyPluginAsyncTypebox<{ pulse: PulseDb }> = async (
  app,
  { pulse },
) => {
  app.post(
    '/events',
    {
      schema: {
        tags,
        summary: 'Track one event',
        description:
          'Answers 201 with the stored event, or 200 with the stored one when its id was sent before.',
        body: EventInputSchema,
        response: responses({ 200: EventSchema, 201: EventSchema }),
      },
    },
    async (request, reply) => {
      const event = toNewEvent(request.body, new Date());
      const stored = await insertEvent(pulse, event);
      if (stored) return reply.code(201).send(ok(toEvent(stored)));
      // The id was sent before: answer with what is stored, as a retry expects.
      const existing = await findEvent(pulse, event.id);
      if (!existing) throw notFound('Event', event.id);
      return ok(toEvent(existing));
    },
  );

  app.post(
    '/events/batch',
    {
      bodyLimit: MAX_BATCH_BYTES,
      config: { bodyTooLargeMessage: `A batch may be at most ${MAX_BATCH_BYTES} bytes (1 MiB)` },
      schema: {
        tags,
        summary: 'Track a batch of events',
        description:
          `Up to ${MAX_BATCH_EVENTS} events and 1 MiB. An invalid item rejects the whole batch, naming its index and field. ` +
          'ingested counts the events stored now; duplicates counts those whose id was stored before (safe retries).',
        body: BatchSchema,
        response: responses({
          201: Type.Object({ ingested: Type.Integer(), duplicates: Type.Integer() }),
        }),
      },
    },
    async (request, reply) => {
      const receivedAt = new Date();
      const events = request.body.events.map((input) => toNewEvent(input, receivedAt));
      const stored = await insertEvents(pulse, events);
      return reply
        .code(201)
        .send(ok({ ingested: stored.size, duplicates: events.length - stored.size }));
    },
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        summary: 'List events, newest first',
        querystring: ListQuery,
        response: responses({ 200: Type.Array(EventSchema) }),
      },
    },
    async (request) => {
      const { name, userId, sessionId, limit, offset } = request.query;
      const rows = await listEvents(
        pulse,
        { name, userId, sessionId, ...parseRange(request.query) },
        { limit, offset },
      );
      return ok(rows.map(toEvent));
    },
  );

  app.get(
    '/events/:id',
    {
      schema: {
        tags,
        summary: 'Get one event',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: EventSchema }),
      },
    },
    async (request) => {
      const row = await findEvent(pulse, request.params.id);
      if (!row) throw notFound('Event', request.params.id);
      return ok(toEvent(row));
    },
  );
};
