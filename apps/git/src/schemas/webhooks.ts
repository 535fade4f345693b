import { Nullable, Stamps, stamps, Type, type Static } from '@platform/core';
import { RepoParams, User } from './repos.js';
import type { WebhookEventRow, WebhookRow } from '../database.js';

export const WEBHOOK_EVENTS = [
  'push',
  'create',
  'delete',
  'pull_request',
  'pull_request_review',
] as const;

export const WebhookInputSchema = Type.Object({
  user: Type.Optional(User),
  url: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL to POST events to' }),
  secret: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 200,
      description:
        'local only: the signing secret (default: one made here and shown once); github webhooks are signed with GIT_WEBHOOK_SECRET',
    }),
  ),
});

export const WebhookSchema = Type.Object({
  id: Type.String(),
  repositoryId: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  providerHookId: Nullable(Type.String()),
  secret: Type.Optional(
    Type.String({ description: 'local only, in the answer that creates it: shown this once' }),
  ),
  ...Stamps,
});
export type Webhook = Static<typeof WebhookSchema>;

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  repositoryId: row.repository_id,
  url: row.url,
  events: row.events,
  providerHookId: row.provider_hook_id,
  ...stamps(row.created_at, row.updated_at),
});

export const WebhookDeleteQuery = Type.Object({
  user: Type.Optional(User),
  url: Type.Optional(Type.String({ minLength: 1, description: 'Only this one; default: all' })),
});
export { RepoParams };

export const EventListQuery = Type.Object({
  repositoryId: Type.Optional(Type.String({ minLength: 1, description: 'Repository id or name' })),
  event: Type.Optional(
    Type.String({ minLength: 1, description: 'Only this kind (X-GitHub-Event)' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
});

export const EventSchema = Type.Object({
  id: Type.String(),
  deliveryId: Type.String(),
  event: Type.String(),
  action: Nullable(Type.String()),
  repositoryId: Nullable(Type.String()),
  repositoryName: Nullable(Type.String()),
  payload: Type.Unknown(),
  created: Type.String(),
});
export type WebhookEvent = Static<typeof EventSchema>;

export const toEvent = (row: WebhookEventRow): WebhookEvent => ({
  id: row.id,
  deliveryId: row.delivery_id,
  event: row.event,
  action: row.action,
  repositoryId: row.repository_id,
  repositoryName: row.repository_name,
  payload: row.payload,
  created: row.created_at.toISOString(),
});

export const ReceivedSchema = Type.Object({
  id: Type.String(),
  deliveryId: Type.String(),
  event: Type.String(),
  duplicate: Type.Boolean({
    description: 'true when this delivery id, or this exact body, was received before',
  }),
});
