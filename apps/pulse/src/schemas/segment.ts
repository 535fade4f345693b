import { Type } from '@platform/core';

const Open = { additionalProperties: true } as const;

const Message = {
  userId: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'Who did it' })),
  anonymousId: Type.Optional(
    Type.Union([Type.String(), Type.Number()], { description: 'Who did it, before signing up' }),
  ),
  messageId: Type.Optional(
    Type.String({ description: 'The stored id: a retry is not stored twice' }),
  ),
  timestamp: Type.Optional(Type.String({ description: 'When it happened (ISO 8601)' })),
  sentAt: Type.Optional(Type.String({ description: 'When the client sent it: clock skew' })),
  context: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Mapped to PostHog properties: page.url as `$current_url`, campaign as `utm_*` ...',
    }),
  ),
  properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  traits: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};

export const SegmentMessageSchema = Type.Object(
  {
    ...Message,
    type: Type.Optional(
      Type.String({ description: 'track, identify, page, screen, group, alias' }),
    ),
    event: Type.Optional(Type.String({ description: 'The event name (track)' })),
    name: Type.Optional(Type.String({ description: 'The page or screen name' })),
    groupId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    previousId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    writeKey: Type.Optional(
      Type.String({ description: 'The write key, if not sent as HTTP Basic' }),
    ),
  },
  Open,
);

export const SegmentBatchSchema = Type.Object(
  {
    batch: Type.Array(SegmentMessageSchema, { description: 'Messages, each with its type' }),
    context: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    sentAt: Type.Optional(Type.String()),
    writeKey: Type.Optional(
      Type.String({ description: 'The write key, if not sent as HTTP Basic' }),
    ),
  },
  Open,
);

export const SegmentAcceptedSchema = Type.Object({ success: Type.Literal(true) });

// Open, its fields optional: the handlers' errors are written as the platform's envelope first,
// then turned into this shape as they are sent (domain/ingest-errors.ts).
export const SegmentErrorSchema = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String({ description: 'What is wrong, naming the field' })),
  },
  Open,
);
