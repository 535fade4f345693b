import { Nullable, Stamps, Type, type Static } from '@platform/core';
import { RepoParams, User } from './repos.js';

export const WEBHOOK_EVENTS = ['push', 'create', 'delete', 'pull_request'] as const;

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

export const ReceivedSchema = Type.Object({
  id: Type.String(),
  deliveryId: Type.String(),
  event: Type.String(),
  duplicate: Type.Boolean({
    description: 'true when this delivery id, or this exact body, was received before',
  }),
});
