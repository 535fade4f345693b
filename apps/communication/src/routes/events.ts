import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ApiError,
  badRequest,
  dataValidator,
  named,
  notFound,
  ok,
  responses,
  notConfigured,
  Type,
  type Access,
} from '@platform/core';
import type { CommunicationRoutes } from '../domain/state.js';
import { recordReport } from '../domain/bounces/record.js';
import { deliveryByReference, listSuppressions, unsuppress } from '../repositories/suppressions.js';
import {
  ProviderEventResultSchema,
  ProviderEventSchema,
  SuppressionListQuery,
  SuppressionParams,
  SuppressionSchema,
  toSuppression,
} from '../schemas/events.js';

/** A signature older or newer than this is refused (replays). */
const TOLERANCE_S = 300;

type ProviderEvent = {
  type: 'bounce' | 'complaint' | 'delivered';
  deliveryId?: string;
  messageId?: string;
  address: string;
  hard?: boolean;
};

/** POST /provider-events (bounces, complaints), GET and DELETE /suppressions. */
export const eventRoutes: CommunicationRoutes = async (app, { db, config }) => {
  // Providers cannot sign in: the signature over the raw body with COMMUNICATION_EVENTS_SECRET is the authentication.
  const RECEIVE: Access = { resource: 'communication.event', action: 'ingest', rule: 'public' };
  const ADMIN = (action: Access['action']): Access => ({
    resource: 'communication.suppression',
    action,
    rule: 'admin',
  });
  const validate = dataValidator(ProviderEventSchema);

  function verify(raw: Buffer, timestamp: unknown, signature: unknown) {
    const secret = config.eventsSecret;
    if (!secret)
      throw notConfigured('COMMUNICATION_EVENTS_SECRET is not set: provider events are off');
    if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp))
      throw new ApiError('UNAUTHORIZED', 'X-Platform-Timestamp is required (Unix seconds)');
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_S)
      throw new ApiError(
        'UNAUTHORIZED',
        `X-Platform-Timestamp is more than ${TOLERANCE_S} s away from now`,
      );
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`,
    );
    const given = Buffer.from(typeof signature === 'string' ? signature : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new ApiError('UNAUTHORIZED', 'X-Platform-Signature does not match the body');
  }

  await app.register(
    named(async (scope) => {
      // The raw bytes are what the provider signed: JSON is parsed once they are verified.
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: 65_536 },
        (_r, body, done) => done(null, body),
      );
      scope.post(
        '/provider-events',
        {
          config: { access: RECEIVE },
          schema: {
            operationId: 'receiveProviderEvent',
            summary: 'A mail provider reports a bounce, a complaint or a delivery',
            description:
              'JSON `{ type: bounce|complaint|delivered, deliveryId | messageId, address, hard? }`, signed: `X-Platform-Timestamp` (Unix seconds, within 5 minutes) and `X-Platform-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with COMMUNICATION_EVENTS_SECRET>` (401 otherwise). A bounce marks the delivery `bounced`, a complaint `complained`; a hard bounce or a complaint suppresses the address: sends to it are refused until an admin removes it (DELETE /suppressions/:address). 404 when a delivery named is not found; 409 `NOT_CONFIGURED` while COMMUNICATION_EVENTS_SECRET is not set.',
            headers: Type.Object({
              'x-platform-timestamp': Type.Optional(Type.String()),
              'x-platform-signature': Type.Optional(Type.String()),
            }),
            response: responses({ 200: ProviderEventResultSchema }),
          },
        },
        async (request) => {
          const raw = request.body as Buffer;
          verify(
            raw,
            request.headers['x-platform-timestamp'],
            request.headers['x-platform-signature'],
          );
          let event: ProviderEvent;
          try {
            event = JSON.parse(raw.toString('utf8'));
          } catch {
            throw badRequest('The body is not JSON');
          }
          const problem = validate(event);
          if (problem) throw badRequest(problem.replace(/^body /, ''));
          const named = event.deliveryId !== undefined || event.messageId !== undefined;
          const delivery = await deliveryByReference(db, event);
          if (named && !delivery) throw notFound('Delivery', event.deliveryId ?? event.messageId!);
          const suppressing = await recordReport(db, delivery?.id ?? null, event);
          const after = delivery
            ? await deliveryByReference(db, { deliveryId: delivery.id })
            : undefined;
          return ok({
            deliveryId: delivery?.id ?? null,
            status: after?.status ?? null,
            suppressed: suppressing,
          });
        },
      );
    }),
  );

  app.get(
    '/suppressions',
    {
      config: { access: ADMIN('read') },
      schema: {
        operationId: 'listSuppressions',
        summary: 'Addresses no mail is sent to (hard bounces, complaints), newest first',
        description: '`limit` (100, at most 1000) and `offset` page. Admins.',
        querystring: SuppressionListQuery,
        response: responses({ 200: Type.Array(SuppressionSchema) }),
      },
    },
    async (request) => ok((await listSuppressions(db, request.query)).map(toSuppression)),
  );

  app.delete(
    '/suppressions/:address',
    {
      config: { access: ADMIN('delete') },
      schema: {
        operationId: 'deleteSuppression',
        summary: 'Send to a suppressed address again',
        description: 'Admins. 404 when the address is not suppressed.',
        params: SuppressionParams,
        response: responses({ 200: SuppressionParams }),
      },
    },
    async (request) => {
      const { address } = request.params;
      if (!(await unsuppress(db, address))) throw notFound('Suppression', address);
      return ok({ address: address.toLowerCase() });
    },
  );
};
