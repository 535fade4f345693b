import { Type } from '@platform/core';

const Open = { additionalProperties: true } as const;

/** One PostHog event as posthog-js and posthog-node send it. */
const PostHogEvent = Type.Object(
  {
    event: Type.Optional(
      Type.String({ description: 'The event name: `$pageview`, `signup`, ...' }),
    ),
    distinct_id: Type.Optional(
      Type.Union([Type.String(), Type.Number()], {
        description: 'Who did it (else `properties.distinct_id`)',
      }),
    ),
    properties: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Kept as sent (`token` removed): `$session_id`, `$current_url`, `$set`, `$set_once`, `$anon_distinct_id` ...',
      }),
    ),
    uuid: Type.Optional(Type.String({ description: 'The stored id: a retry is not stored twice' })),
    timestamp: Type.Optional(Type.String({ description: 'When it happened (ISO 8601)' })),
    offset: Type.Optional(Type.Number({ description: 'Milliseconds before the request' })),
    api_key: Type.Optional(Type.String({ description: 'The project key (a pulse:ingest key)' })),
    token: Type.Optional(Type.String({ description: 'The project key, as `api_key`' })),
  },
  Open,
);

export const PostHogBodySchema = Type.Union(
  [
    Type.Object(
      {
        api_key: Type.Optional(
          Type.String({ description: 'The project key: a platform key with pulse:ingest' }),
        ),
        batch: Type.Optional(Type.Array(PostHogEvent)),
        sent_at: Type.Optional(Type.String({ description: 'When the client sent it: clock skew' })),
        historical_migration: Type.Optional(Type.Boolean()),
      },
      Open,
    ),
    Type.Array(PostHogEvent),
  ],
  {
    description:
      "A batch `{ api_key, batch: [events], sent_at }`, one event, or a list of events; as JSON, gzip (`Content-Encoding: gzip`, or posthog-js's `text/plain` gzip), or a form `data=` in plain JSON, base64 or lz-string base64 (`compression=base64|lz64`).",
  },
);

export const PostHogQuery = Type.Object(
  {
    compression: Type.Optional(
      Type.String({ description: '`gzip-js`, `gzip`, `base64` or `lz64`: how the body is coded' }),
    ),
    ver: Type.Optional(Type.String({ description: "The library's version (ignored)" })),
    ip: Type.Optional(Type.String({ description: 'Ignored' })),
    _: Type.Optional(
      Type.String({ description: 'The time sent, as posthog-js adds it (ignored)' }),
    ),
  },
  { ...Open, description: 'Other parameters the libraries add are accepted and ignored' },
);

export const PostHogAcceptedSchema = Type.Object({
  status: Type.Literal(1, { description: 'Accepted: every event is stored (retries once)' }),
});

// Open, its fields optional: the handlers' errors are written as the platform's envelope first,
// then turned into this shape as they are sent (domain/ingest-errors.ts).
export const PostHogErrorSchema = Type.Object(
  {
    type: Type.Optional(
      Type.String({ description: '`validation_error`, `authentication_error`, ...' }),
    ),
    code: Type.Optional(Type.String({ description: '`invalid_payload`, `invalid_api_key`, ...' })),
    detail: Type.Optional(Type.String({ description: 'What is wrong, naming the field' })),
    attr: Type.Optional(Type.Null()),
  },
  Open,
);

export const PostHogFlagsSchema = Type.Object({
  flags: Type.Record(Type.String(), Type.Unknown()),
  featureFlags: Type.Record(Type.String(), Type.Unknown()),
  featureFlagPayloads: Type.Record(Type.String(), Type.Unknown()),
  errorsWhileComputingFlags: Type.Boolean(),
  requestId: Type.String(),
});

export const PostHogConfigSchema = Type.Object(
  {
    token: Type.String(),
    supportedCompression: Type.Array(Type.String()),
    hasFeatureFlags: Type.Boolean(),
    analytics: Type.Object({ endpoint: Type.String() }),
  },
  Open,
);

export const PostHogTokenParams = Type.Object({
  token: Type.String({
    maxLength: 200,
    description: 'The project key (not checked: nothing is read)',
  }),
});
