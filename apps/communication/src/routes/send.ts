import { createHash } from 'node:crypto';
import {
  ApiError,
  badRequest,
  conflict,
  findByIdOrName,
  newId,
  ok,
  responses,
  type Access,
} from '@platform/core';
import { isUniqueViolation } from '@platform/db';
import { appOwners } from '../domain/app-owners.js';
import type { DeliveryRow } from '../database.js';
import { isLive } from '../domain/providers/index.js';
import { checkTarget } from '../domain/providers/targets.js';
import type { CommunicationRoutes } from '../domain/state.js';
import { deliveryByKey, insertDelivery } from '../repositories/deliveries.js';
import { registrationOf } from '../repositories/registrations.js';
import { SendResultSchema, SendSchema, toDelivery, type SendInput } from '../schemas/deliveries.js';
import { AppParams } from '../schemas/registrations.js';

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
  const { db } = ctx;
  const { deliveries } = ctx.state;
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

  app.post(
    '/apps/:appId/send',
    {
      config: { access: SEND },
      schema: {
        operationId: 'send',
        summary: 'Send a message through a channel the app is registered on',
        description:
          "Answers 202 at once with the delivery `accepted`; it moves to `sent` or `failed` (GET /apps/:appId/deliveries/:id). Needs the app's enabled registration on an active channel (404 or 400 naming which is missing or off). `to` overrides the registration's target; `subject` is required for smtp. An `Idempotency-Key` header makes a repeat answer the first delivery (202, header idempotent-replayed: true), or 409 when the request differs.",
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
      if (key !== null) {
        const first = await deliveryByKey(db, appId, key);
        if (first) return replay(first);
      }

      const channel = await findByIdOrName(db, 'channels', body.channelId, 'Channel');
      if (channel.status !== 'active')
        throw badRequest(
          `Channel ${channel.name} is disabled: set its status to active to send through it`,
        );
      const registration = await registrationOf(db, appId, channel.id);
      if (!registration)
        throw new ApiError(
          'NOT_FOUND',
          `Registration not found: app ${appId} is not registered on channel ${channel.name}`,
        );
      if (!registration.enabled)
        throw badRequest(
          `Registration ${registration.id} of app ${appId} on channel ${channel.name} is disabled`,
        );
      const target = (body.to ?? registration.target).trim();
      if (channel.provider === 'smtp') {
        if (target === '')
          throw badRequest(
            `to is required: the registration of app ${appId} on channel ${channel.name} has no target`,
          );
        if (body.subject === undefined) throw badRequest('subject is required for an smtp channel');
      }
      checkTarget(
        channel.provider,
        target,
        body.to === undefined ? 'the registration target' : 'to',
      );

      const delivery = {
        id: newId(8, 'dl_'),
        app_id: appId,
        channel_id: channel.id,
        provider: channel.provider,
        target,
        subject: body.subject ?? null,
        text: body.text,
        html: body.html ?? null,
        metadata: body.metadata ?? {},
        live: isLive(channel.provider),
        idempotency_key: key,
        request_hash: hash,
        request_id: request.id,
      };
      let record: DeliveryRow;
      try {
        // Sent at once while this instance has a free run; queued for the next one otherwise,
        // so that a burst of sends never opens a connection each.
        ({ record } = await deliveries.start(
          { deliveryId: delivery.id },
          { record: (trx) => insertDelivery(trx, delivery), mayQueue: true },
        ));
      } catch (error) {
        // The same key sent concurrently: the other request stored its delivery first.
        const first =
          key !== null && isUniqueViolation(error) && (await deliveryByKey(db, appId, key));
        if (first) return replay(first);
        throw error;
      }
      return reply
        .code(202)
        .send(
          ok({ delivery: toDelivery(record), provider: channel.provider, live: delivery.live }),
        );
    },
  );
};
