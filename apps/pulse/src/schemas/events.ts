import {
  Instant,
  IsoTimestamp,
  MiB,
  Nullable,
  PagedQuery,
  Type,
  type Static,
} from '@platform/core';
import type { EventRow } from '../database.js';

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
export type EventInput = Static<typeof EventInputSchema>;

export const EventSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  properties: Type.Record(Type.String(), Type.Unknown()),
  userId: Nullable(Type.String()),
  sessionId: Nullable(Type.String()),
  timestamp: IsoTimestamp,
});
export type Event = Static<typeof EventSchema>;

export const toEvent = (row: EventRow): Event => ({
  id: row.id,
  name: row.name,
  properties: row.properties,
  userId: row.user_id,
  sessionId: row.session_id,
  timestamp: row.timestamp.toISOString(),
});

export const MAX_BATCH_EVENTS = 1000;
export const MAX_BATCH_BYTES = MiB;

export const BatchSchema = Type.Object({
  events: Type.Array(EventInputSchema, {
    minItems: 1,
    maxItems: MAX_BATCH_EVENTS,
    description: `1 to ${MAX_BATCH_EVENTS} events; a batch is stored whole or not at all`,
  }),
});

export const BatchResultSchema = Type.Object({
  ingested: Type.Integer({ description: 'Events stored now' }),
  duplicates: Type.Integer({ description: 'Events whose id was stored before' }),
});

export const EventListQuery = PagedQuery({
  name: Type.Optional(Type.String({ description: 'Only events with this name' })),
  userId: Type.Optional(Type.String({ description: 'Only events of this user' })),
  sessionId: Type.Optional(Type.String({ description: 'Only events of this session' })),
  from: Type.Optional(Instant('Events at or after')),
  to: Type.Optional(Instant('Events at or before')),
});

export const EventParams = Type.Object({ id: Type.String({ description: 'Event id' }) });

export const TopEventsQuery = Type.Object({
  from: Type.Optional(Instant('Count events at or after')),
  to: Type.Optional(Instant('Count events at or before')),
  property: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Count only events with this property equal to `value` (both or neither); only `service` (it is indexed)',
    }),
  ),
  value: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'The value of `property` counted (compared as text, exactly)',
    }),
  ),
  limit: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'How many names (1-1000, default 10)',
  }),
});

export const TopEventSchema = Type.Object({ name: Type.String(), count: Type.Integer() });
