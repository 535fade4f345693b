import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import {
  ATTEMPT_OUTCOMES,
  DELIVERY_STATUSES,
  PROVIDERS,
  type AttemptRow,
  type DeliveryRow,
} from '../database.js';
import { AppId, Metadata } from './registrations.js';

const Status = Type.Enum([...DELIVERY_STATUSES]);

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'dl_ and 8 random characters' }),
  appId: Type.String(),
  channelId: Type.String(),
  provider: Type.Enum([...PROVIDERS]),
  target: Type.String(),
  status: Type.Enum([...DELIVERY_STATUSES], {
    description: 'accepted (queued or being retried), then sent or failed',
  }),
  subject: Nullable(Type.String()),
  metadata: Metadata,
  providerMessageId: Nullable(Type.String(), {
    description: "Once sent: the SMTP Message-ID, the webhook's answer, Slack's ok",
  }),
  error: Nullable(Type.String(), {
    description: 'Why it failed, or why the last attempt failed while it is retried',
  }),
  live: Type.Boolean({ description: 'A real provider carries it (false for log)' }),
  attemptCount: Type.Integer(),
  idempotencyKey: Nullable(Type.String()),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Delivery = Static<typeof DeliverySchema>;

export const AttemptSchema = Type.Object({
  number: Type.Integer({ description: '1 for the first attempt' }),
  at: IsoTimestamp,
  outcome: Type.Enum([...ATTEMPT_OUTCOMES], {
    description:
      'sent; retry (transient failure, tried again); failed (the last); interrupted (the service stopped during it)',
  }),
  error: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
});

export const DeliveryDetailSchema = Type.Object({
  ...DeliverySchema.properties,
  text: Type.String(),
  html: Nullable(Type.String()),
  attempts: Type.Array(AttemptSchema),
});

export const SendSchema = Type.Object({
  channelId: Type.String({ minLength: 1, description: 'The channel: its id or its name' }),
  text: Type.String({ minLength: 1, maxLength: 100_000 }),
  subject: Type.Optional(
    Type.String({ minLength: 1, maxLength: 998, description: 'Required for an smtp channel' }),
  ),
  html: Type.Optional(Type.String({ minLength: 1, maxLength: 500_000 })),
  to: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "Overrides the registration's target for this message",
    }),
  ),
  metadata: Type.Optional(Metadata),
});
export type SendInput = Static<typeof SendSchema>;

export const SendResultSchema = Type.Object({
  delivery: DeliverySchema,
  provider: Type.String(),
  live: Type.Boolean(),
});

export const DeliveryListQuery = PagedQuery({
  channelId: Type.Optional(
    Type.String({ minLength: 1, description: 'Only the deliveries of this channel (id or name)' }),
  ),
  status: Type.Optional(Status),
});

export const DeliveryParams = Type.Object({ appId: AppId, id: Type.String({ minLength: 1 }) });

/** A delivery row as the API shows it. */
export const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  appId: row.app_id,
  channelId: row.channel_id,
  provider: row.provider,
  target: row.target,
  status: row.status,
  subject: row.subject,
  metadata: row.metadata,
  providerMessageId: row.provider_message_id,
  error: row.error,
  live: row.live,
  attemptCount: row.attempt_count,
  idempotencyKey: row.idempotency_key,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const toAttempt = (row: AttemptRow) => ({
  number: row.number,
  at: row.at.toISOString(),
  outcome: row.outcome,
  error: row.error,
  durationMs: row.duration_ms,
});
