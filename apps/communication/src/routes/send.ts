import { createHash } from 'node:crypto';
import { badRequest, conflict, ok, responses, type Access } from '@platform/core';
import { isUniqueViolation } from '@platform/db';
import { appOwners } from '../domain/app-owners.js';
import type { DeliveryRow, DigestKeysTable } from '../database.js';
import type { Selectable } from '@platform/db';
import { compose } from '../domain/compose.js';
import { deliveryOf, submit } from '../domain/schedule.js';
import type { CommunicationRoutes } from '../domain/state.js';
import { deliveryByKey, findDelivery } from '../repositories/deliveries.js';
import { addToDigest, digestByKey } from '../repositories/digests.js';
import { SendResultSchema, SendSchema, toDelivery, type SendInput } from '../schemas/deliveries.js';
import { AppParams } from '../schemas/registrations.js';

type DigestKeyRow = Selectable<DigestKeysTable>;

/** JSON with its object keys sorted: equal requests give equal text whatever their key order. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value);

const requestHash = (appId: string, body: SendInput) =>
  createHash('sha256')
    .update(canonical({ appId, ...body }))
    .digest('hex');

/** The Idempotency-Key header: 1-255 visible characters, or none. */
function idempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header) || !/^[\x21-\x7e]{1,255}$/.test(header))
    throw badRequest('Idempotency-Key must be one value of 1 to 255 visible ASCII characters');
  return header;
}

export const sendRoutes: CommunicationRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  const { templates } = ctx.state;
  /** Sending in an app's name: its owners (members), admins and the platform's services. */
  const SEND: Access = {
    resource: 'communication.delivery',
    action: 'create',
    rule: 'owner',
    owner: appOwners(ctx.platform),
  };

  /** The answer to a repeated key: the first delivery, or 409 when the request differs. */
  function repeat(first: DeliveryRow, hash: string | null) {
    if (first.request_hash !== hash)
      throw conflict(
        `Idempotency-Key ${first.idempotency_key} was sent before with a different request (delivery ${first.id}); use a new key for a new message`,
      );
    return ok({ delivery: toDelivery(first), provider: first.provider, live: first.live });
  }

  /** The answer of a send that joined a digest: the digest's delivery, as it is now. */
  async function digested(joined: {
    id: string;
    flushAt: Date;
    items: number;
    deliveryId: string;
  }) {
    const record = (await findDelivery(db, joined.deliveryId))!;
    return ok({
      delivery: toDelivery(record),
      digest: { id: joined.id, flushAt: joined.flushAt.toISOString(), items: joined.items },
      provider: record.provider,
      live: record.live,
    });
  }

  /** The answer to a repeated key of a digested send: as the first, or 409 when it differs. */
  function repeatDigest(first: DigestKeyRow, hash: string | null) {
    if (first.request_hash !== hash)
      throw conflict(
        `Idempotency-Key ${first.idempotency_key} was sent before with a different request (digest ${first.digest_id}); use a new key for a new message`,
      );
    const { digest_id: id, flush_at: flushAt, items, delivery_id: deliveryId } = first;
    return digested({ id, flushAt, items, deliveryId });
  }

  app.post(
    '/apps/:appId/send',
    {
      config: { access: SEND },
      schema: {
        operationId: 'send',
        summary: 'Send a message through a channel the app is registered on',
        description:
          "Answers 202 at once with the delivery `accepted`; it moves to `sent` or `failed` (GET /apps/:appId/deliveries/:id). Needs the app's enabled registration on an active channel (404 or 400 naming which is missing or off). `to` overrides the registration's target; `subject` is required for smtp. A body (`text`, `subject`, `html`) or a `template` with its `data` (checked against the template's schema: 400 naming the field) and `locale`. `channels` names several in order: when one fails after its retries, or the recipient opted out of the `category` there, the next is tried. Every channel opted out of: the delivery is `skipped`; every address suppressed (bounces): 400. `sendAt` delays it; a template with a digest form collects sends per recipient (answer: `delivery` null and the `digest`). An `Idempotency-Key` header makes a repeat answer the first delivery (202, header idempotent-replayed: true), or 409 when the request differs; a digested send's repeat answers its digest as the first did, and joins nothing.",
        params: AppParams,
        body: SendSchema,
        response: responses({ 202: SendResultSchema }),
      },
    },
    async (request, reply) => {
      const { appId } = request.params;
      const body = request.body;
      const key = idempotencyKey(request.headers['idempotency-key']);
      const hash = key === null ? null : requestHash(appId, body);
      const replay = (first: DeliveryRow) =>
        reply.code(202).header('idempotent-replayed', 'true').send(repeat(first, hash));
      const replayDigest = async (first: DigestKeyRow) =>
        reply
          .code(202)
          .header('idempotent-replayed', 'true')
          .send(await repeatDigest(first, hash));
      if (key !== null) {
        const first = await deliveryByKey(db, appId, key);
        if (first) return replay(first);
        const joined = await digestByKey(db, appId, key);
        if (joined) return replayDigest(joined);
      }

      const sendAt = body.sendAt === undefined ? undefined : new Date(body.sendAt);
      const composed = await compose({ db, config, engine: templates }, appId, body);
      const digest = composed.template?.content.digest;
      if (digest && sendAt === undefined) {
        // Collected: one message per recipient and window, through the digest form, as the
        // delivery the digest's first send stored (every send of it answers that one).
        const { data, template: _template, ...send } = body;
        let joined;
        try {
          joined = await addToDigest(
            db,
            {
              appId,
              templateId: composed.template!.id,
              recipient: composed.recipient ?? composed.steps[0].target,
            },
            send,
            data ?? {},
            digest.windowSeconds,
            deliveryOf(composed, appId, {
              metadata: body.metadata ?? {},
              idempotency_key: null,
              request_hash: null,
              request_id: request.id,
            }),
            key === null ? null : { key, hash: hash! },
          );
        } catch (error) {
          // The same key sent concurrently: the other request joined the digest first.
          const first =
            key !== null && isUniqueViolation(error) && (await digestByKey(db, appId, key));
          if (first) return replayDigest(first);
          throw error;
        }
        return reply.code(202).send(await digested(joined));
      }
      if (composed.steps.every((s) => s.skipped?.includes(' is suppressed ')))
        throw badRequest(`Not sent: ${composed.steps.map((s) => s.skipped).join('; ')}`);
      const delivery = deliveryOf(composed, appId, {
        metadata: body.metadata ?? {},
        idempotency_key: key,
        request_hash: hash,
        request_id: request.id,
        sendAt,
      });
      let record: DeliveryRow;
      try {
        // Sent at once while this instance has a free run; queued for the next one otherwise,
        // so that a burst of sends never opens a connection each; delayed ones wait, stored.
        record = await submit(ctx, delivery);
      } catch (error) {
        // The same key sent concurrently: the other request stored its delivery first.
        const first =
          key !== null && isUniqueViolation(error) && (await deliveryByKey(db, appId, key));
        if (first) return replay(first);
        throw error;
      }
      return reply
        .code(202)
        .send(ok({ delivery: toDelivery(record), provider: record.provider, live: record.live }));
    },
  );
};
