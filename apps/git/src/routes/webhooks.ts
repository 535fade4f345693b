import { randomBytes } from 'node:crypto';
import {
  ApiError,
  notConfigured,
  badRequest,
  checkedAddresses,
  newId,
  ok,
  orConflict,
  PrivateTargetError,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { gitAccess, repositoryOwner } from '../domain/access.js';
import { targetPolicy } from '../domain/destination.js';
import { findRepository } from '../repositories/repos.js';
import {
  deleteWebhook,
  insertWebhook,
  listEvents,
  listWebhooks,
} from '../repositories/webhooks.js';
import {
  EventListQuery,
  EventSchema,
  RepoParams,
  WEBHOOK_EVENTS,
  WebhookDeleteQuery,
  WebhookInputSchema,
  WebhookSchema,
  toEvent,
  toWebhook,
} from '../schemas/webhooks.js';
import type { GitRoutes } from '../domain/state.js';

function checkUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // below
  }
  throw badRequest(`url must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
}

/** Webhooks registered on a repository (at GitHub, or sent by the platform) and received events. */
export const webhookRoutes: GitRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  const access = gitAccess(ctx, app);
  const hooks = ctx.state.webhooks;
  // A repository's webhooks send its events elsewhere: the connection's owners add and remove
  // them. Received events: anyone signed in.
  const owner = repositoryOwner(ctx);
  const CREATE: Access = { resource: 'git.webhook', action: 'create', rule: 'owner', owner };
  const DELETE: Access = { resource: 'git.webhook', action: 'delete', rule: 'owner', owner };
  const EVENTS: Access = { resource: 'git.event', action: 'read' };

  app.post(
    '/repos/:id/webhooks',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook on a repository',
        description:
          'Events push, create, delete, pull_request. github: registered at GitHub (JSON, signed with GIT_WEBHOOK_SECRET; 409 NOT_CONFIGURED when unset). local: the platform POSTs the events itself, signed like GitHub (X-Hub-Signature-256) with `secret`, or one made here and answered this once; a url on a loopback, private or link-local address is 400 unless GIT_ALLOW_PRIVATE_TARGETS. 409 when the url is registered already.',
        params: RepoParams,
        body: WebhookInputSchema,
        response: responses({ 201: WebhookSchema }),
      },
    },
    async (request, reply) => {
      const { user, secret } = request.body;
      const url = checkUrl(request.body.url);
      const opened = await access.open(request, request.params.id, user);
      const base = { id: newId(), repository_id: opened.repo.id, url, events: [...WEBHOOK_EVENTS] };
      if (opened.kind === 'github') {
        if (secret !== undefined)
          throw badRequest(
            'secret is for local repositories: GitHub webhooks are signed with GIT_WEBHOOK_SECRET',
          );
        if (!config.webhookSecret)
          throw notConfigured(
            'GIT_WEBHOOK_SECRET is not set: GitHub webhooks could not be verified',
          );
        const existing = await listWebhooks(db, opened.repo.id, url);
        if (existing.length > 0)
          throw new ApiError('CONFLICT', `A webhook to ${url} is registered already`);
        const hookId = await opened.git.hooks.create(url, config.webhookSecret, WEBHOOK_EVENTS);
        const row = await orConflict(
          () => insertWebhook(db, { ...base, provider_hook_id: hookId, secret: null }),
          `A webhook to ${url} is registered already`,
        );
        return reply.code(201).send(ok(toWebhook(row)));
      }
      // The platform itself calls this URL: not its own network, unless GIT_ALLOW_PRIVATE_TARGETS.
      // A name that does not resolve yet is accepted: each delivery checks again.
      await checkedAddresses(
        new URL(url).hostname,
        targetPolicy(config.allowPrivateTargets),
        'url',
      ).catch((error: unknown) => {
        if (error instanceof PrivateTargetError) throw badRequest(error.message);
      });
      const plain = secret ?? randomBytes(24).toString('hex');
      const row = await orConflict(
        () => insertWebhook(db, { ...base, provider_hook_id: null, secret: hooks.seal(plain) }),
        `A webhook to ${url} is registered already`,
      );
      return reply.code(201).send(ok({ ...toWebhook(row), ...(secret ? {} : { secret: plain }) }));
    },
  );

  app.delete(
    '/repos/:id/webhooks',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteWebhooks',
        summary: "Remove a repository's webhooks",
        description:
          'All of them, or only the one of `url`; github ones are deleted at GitHub too. Answers those removed.',
        params: RepoParams,
        querystring: WebhookDeleteQuery,
        response: responses({ 200: Type.Array(WebhookSchema) }),
      },
    },
    async (request) => {
      const { user, url } = request.query;
      const opened = await access.open(request, request.params.id, user);
      const rows = await listWebhooks(
        db,
        opened.repo.id,
        url === undefined ? undefined : checkUrl(url),
      );
      for (const row of rows) {
        if (opened.kind === 'github' && row.provider_hook_id)
          await opened.git.hooks.delete(row.provider_hook_id);
        await deleteWebhook(db, row.id);
      }
      return ok(rows.map(toWebhook));
    },
  );

  app.get(
    '/webhooks/events',
    {
      config: { access: EVENTS },
      schema: {
        operationId: 'listWebhookEvents',
        summary: 'Received webhook events, newest first',
        description: '`repositoryId` (id or fullName), `event`, `limit` (100, max 1000), `offset`.',
        querystring: EventListQuery,
        response: responses({ 200: Type.Array(EventSchema) }),
      },
    },
    async (request) => {
      const { repositoryId, event, limit, offset } = request.query;
      const repo = repositoryId === undefined ? undefined : await findRepository(db, repositoryId);
      return ok(
        (await listEvents(db, { repositoryId: repo?.id, event }, { limit, offset })).map(toEvent),
      );
    },
  );
};
