import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ApiError,
  badRequest,
  newId,
  notConfigured,
  ok,
  responses,
  type Access,
} from '@platform/core';
import { hubSignature } from '../domain/notify.js';
import { storablePayload } from '../domain/payload.js';
import { repositoryNamed } from '../repositories/repos.js';
import { firstDelivery, insertEvent } from '../repositories/webhooks.js';
import { ReceivedSchema } from '../schemas/webhooks.js';
import type { GitRoutes } from '../domain/state.js';

const BODY_LIMIT = 25 * 1024 * 1024;
const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);
const header = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** GitHub cannot sign in: the signature is the authentication (checked in the handler). */
const RECEIVE: Access = { resource: 'git.event', action: 'ingest', rule: 'public' };

/** Constant-time comparison of `sha256=<hex>` signatures. */
function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST /webhooks/receive: GitHub's deliveries. Public (GitHub cannot sign in): the HMAC-SHA256
 * signature over the raw body with GIT_WEBHOOK_SECRET is the authentication.
 */
export const receiveRoutes: GitRoutes = async (app, { db, config }) => {
  // The raw bytes are what GitHub signed: this route's JSON stays a Buffer until it is verified.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/webhooks/receive',
    {
      // GitHub caps deliveries at 25 MB; the default 1 MiB would refuse the larger pushes.
      bodyLimit: BODY_LIMIT,
      config: { access: RECEIVE },
      schema: {
        operationId: 'receiveWebhook',
        summary: 'Receive a webhook delivery (GitHub format)',
        description:
          'Headers X-Hub-Signature-256 (sha256=<hex> HMAC of the raw body under GIT_WEBHOOK_SECRET), X-GitHub-Event, X-GitHub-Delivery; JSON body. 401 for a missing or wrong signature (nothing stored), 409 NOT_CONFIGURED when GIT_WEBHOOK_SECRET is not set. A delivery whose id or raw body (SHA-256) was seen before is answered with the first event and `duplicate: true`, and stored once. Body up to 25 MiB; U+0000 is removed from the stored payload (jsonb cannot hold it).',
        response: responses({ 200: ReceivedSchema, 201: ReceivedSchema }),
      },
    },
    async (request, reply) => {
      if (!config.webhookSecret)
        throw notConfigured(
          'GIT_WEBHOOK_SECRET is not set: webhook deliveries cannot be verified, so none is accepted',
        );
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = header(request.headers['x-hub-signature-256']);
      if (!signature)
        throw unauthorized('X-Hub-Signature-256 is missing: the delivery is not signed');
      if (!sameSignature(hubSignature(config.webhookSecret, raw), signature))
        throw unauthorized(
          'X-Hub-Signature-256 does not match the body: wrong secret or altered payload',
        );
      const event = header(request.headers['x-github-event']);
      const deliveryId = header(request.headers['x-github-delivery']);
      if (!event) throw badRequest('X-GitHub-Event is required');
      if (!deliveryId || deliveryId.length > 200)
        throw badRequest('X-GitHub-Delivery is required (at most 200 characters)');
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw badRequest(
          'The body is not JSON: register the webhook with content type application/json',
        );
      }
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        throw badRequest('The body must be a JSON object');
      storablePayload(payload);
      const bodySha256 = createHash('sha256').update(raw).digest('hex');
      const named = (payload.repository as { full_name?: unknown } | undefined)?.full_name;
      const fullName = typeof named === 'string' ? named : null;
      const repo = fullName ? await repositoryNamed(db, fullName) : undefined;
      const stored = await insertEvent(db, {
        id: newId(),
        delivery_id: deliveryId,
        event,
        action: typeof payload.action === 'string' ? payload.action : null,
        repository_id: repo?.id ?? null,
        repository_name: fullName,
        payload,
        body_sha256: bodySha256,
      });
      const row = stored ?? (await firstDelivery(db, deliveryId, bodySha256));
      const answer = {
        id: row.id,
        deliveryId: row.delivery_id,
        event: row.event,
        duplicate: !stored,
      };
      return reply.code(stored ? 201 : 200).send(ok(answer));
    },
  );
};
