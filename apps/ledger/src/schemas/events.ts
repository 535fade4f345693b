import { Instant, IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import { SignaturesCheckSchema } from './signatures.js';
import type { EventRow } from '../database.js';

const Text = (title: string, description: string, maxLength = 200) =>
  Type.String({ minLength: 1, maxLength, title, description });
const Json = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const EventInputSchema = Type.Object({
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

export type EventInput = Static<typeof EventInputSchema>;

export const AuditEventSchema = Type.Object({
  id: Type.String(),
  action: Type.String(),
  actor: Nullable(Type.String()),
  resource: Nullable(Type.String()),
  service: Nullable(Type.String()),
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
export type AuditEvent = Static<typeof AuditEventSchema>;

// Field by field: the row also holds personal_hash, a hash of the actor and metadata that a
// client must not get to test guesses against.
export const toAuditEvent = (row: EventRow): AuditEvent => ({
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

export const VerifyResultSchema = Type.Object({
  valid: Type.Boolean(),
  checked: Type.Integer({ description: 'Events checked' }),
  firstInvalidId: Nullable(Type.String(), {
    description:
      'The first event that does not verify; null when valid, when the end of the chain is missing, or when what does not verify is a signed head row',
  }),
  reason: Nullable(Type.String()),
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
  signatures: SignaturesCheckSchema,
});
export type VerifyResult = Static<typeof VerifyResultSchema>;

export const EventListQuery = PagedQuery({
  action: Type.Optional(Type.String({ description: 'Only events with this action' })),
  actor: Type.Optional(Type.String({ description: 'Only events of this actor' })),
  resource: Type.Optional(Type.String({ description: 'Only events on this resource' })),
  service: Type.Optional(Type.String({ description: 'Only events reported by this service' })),
  from: Type.Optional(Instant('Events at or after')),
  to: Type.Optional(Instant('Events at or before')),
  afterSeq: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'Only events after this place in the chain (`seq`), in chain order (oldest first): a cursor for readers that follow the trail',
    }),
  ),
});

export const EventParams = Type.Object({ id: Type.String({ description: 'Event id' }) });
