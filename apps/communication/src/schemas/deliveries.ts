import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import {
  ATTEMPT_OUTCOMES,
  DELIVERY_STATUSES,
  PROVIDERS,
  type AttemptRow,
  type DeliveryRow,
} from '../database.js';
import { AppId, Metadata } from './registrations.js';
import { Category } from './templates.js';

/** Channels one send may name in order (fallback). */
export const MAX_ROUTE = 4;

const RouteStepSchema = Type.Object({
  channelId: Type.String(),
  channel: Type.String({ description: 'Its name when sent' }),
  provider: Type.Enum([...PROVIDERS]),
  target: Type.String(),
  skipped: Nullable(Type.String(), {
    description: 'Why it was not tried (the recipient opted out, the address is suppressed)',
  }),
});

const Status = Type.Enum([...DELIVERY_STATUSES]);

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'dl_ and 8 random characters' }),
  appId: Type.String(),
  channelId: Type.String(),
  provider: Type.Enum([...PROVIDERS]),
  target: Type.String(),
  status: Type.Enum([...DELIVERY_STATUSES], {
    description:
      'accepted (queued, delayed or being retried), then sent or failed; skipped: every channel was opted out of',
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
  recipient: Nullable(Type.String()),
  category: Nullable(Type.String()),
  templateId: Nullable(Type.String()),
  templateVersion: Nullable(
    Type.Integer({ description: 'The template version it was rendered from' }),
  ),
  locale: Nullable(Type.String({ description: 'The locale rendered' })),
  route: Nullable(Type.Array(RouteStepSchema), {
    description: 'The channels in order when the send named several (channelId: the one in use)',
  }),
  sendAt: Nullable(IsoTimestamp, { description: 'A delayed send: not before then' }),
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
  channelId: Nullable(Type.String({ description: 'The channel tried' })),
});

export const DeliveryDetailSchema = Type.Object({
  ...DeliverySchema.properties,
  text: Type.String(),
  html: Nullable(Type.String()),
  slack: Nullable(
    Type.Object({ text: Type.String(), blocks: Type.Optional(Type.Array(Type.Unknown())) }),
  ),
  attempts: Type.Array(AttemptSchema),
});

export const SendSchema = Type.Object({
  channelId: Type.Optional(
    Type.String({ minLength: 1, description: 'The channel: its id or its name (or `channels`)' }),
  ),
  channels: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      maxItems: MAX_ROUTE,
      description:
        'Channels in order: when one fails after its retries (or the recipient opted out of it), the next is tried',
    }),
  ),
  text: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100_000, description: 'Required without `template`' }),
  ),
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
  template: Type.Optional(
    Type.String({
      minLength: 1,
      description: "One of the app's templates (id or name), instead of a body",
    }),
  ),
  data: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: "The template's data, checked against its schema (400 naming the field)",
    }),
  ),
  locale: Type.Optional(
    Type.String({ minLength: 2, maxLength: 35, description: "Default: the template's fallback" }),
  ),
  category: Type.Optional(
    Type.Intersect([Category], { description: "Default: the template's category" }),
  ),
  recipient: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 320,
      description:
        'The person (an email or identity) whose preferences apply and whose inbox an inbox channel fills; default: the target',
    }),
  ),
  sendAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'A delayed send (ISO 8601): not before then' }),
  ),
});
export type SendInput = Static<typeof SendSchema>;

export const SendResultSchema = Type.Object({
  delivery: DeliverySchema,
  digest: Type.Optional(
    Type.Object(
      { id: Type.String(), flushAt: IsoTimestamp, items: Type.Integer() },
      {
        description:
          'The digest the send joined (a template with a digest form): sent once at flushAt',
      },
    ),
  ),
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
  recipient: row.recipient,
  category: row.category,
  templateId: row.template_id,
  templateVersion: row.template_version,
  locale: row.locale,
  route: row.route,
  sendAt: row.send_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const toAttempt = (row: AttemptRow) => ({
  number: row.number,
  at: row.at.toISOString(),
  outcome: row.outcome,
  error: row.error,
  durationMs: row.duration_ms,
  channelId: row.channel_id,
});
