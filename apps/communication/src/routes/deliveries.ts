import { notFound, ok, responses, Type, type Access } from '@platform/core';
import { appOwners } from '../domain/app-owners.js';
import type { CommunicationRoutes } from '../domain/state.js';
import { channelIdOf } from '../repositories/channels.js';
import { attemptsOf, findDelivery, listDeliveries } from '../repositories/deliveries.js';
import {
  DeliveryDetailSchema,
  DeliveryListQuery,
  DeliveryParams,
  DeliverySchema,
  toAttempt,
  toDelivery,
} from '../schemas/deliveries.js';
import { AppParams } from '../schemas/registrations.js';

export const deliveryRoutes: CommunicationRoutes = async (app, { db, platform }) => {
  /** Private: an app's deliveries (message texts included) are its owners' and admins'. */
  const READ: Access = {
    resource: 'communication.delivery',
    action: 'read',
    rule: 'owner',
    owner: appOwners(platform),
  };

  app.get(
    '/apps/:appId/deliveries',
    {
      config: { access: READ },
      schema: {
        operationId: 'listDeliveries',
        summary: "List an app's deliveries, newest first",
        description:
          '`channelId` (an id, or the name of a channel that still exists) and `status` (accepted, sent, failed) filter; `limit` (100, at most 1000) and `offset` page.',
        params: AppParams,
        querystring: DeliveryListQuery,
        response: responses({ 200: Type.Array(DeliverySchema) }),
      },
    },
    async (request) => {
      const { channelId: ref, status, limit, offset } = request.query;
      // A deleted channel's deliveries stay listed under its id.
      const channelId = ref === undefined ? undefined : ((await channelIdOf(db, ref)) ?? ref);
      const rows = await listDeliveries(
        db,
        request.params.appId,
        { channelId, status },
        { limit, offset },
      );
      return ok(rows.map(toDelivery));
    },
  );

  app.get(
    '/apps/:appId/deliveries/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getDelivery',
        summary: 'Get one delivery with its message and every attempt',
        params: DeliveryParams,
        response: responses({ 200: DeliveryDetailSchema }),
      },
    },
    async (request) => {
      const { appId, id } = request.params;
      const row = await findDelivery(db, id, appId);
      if (!row) throw notFound('Delivery', id);
      const attempts = await attemptsOf(db, id);
      return ok({
        ...toDelivery(row),
        text: row.text,
        html: row.html,
        slack: row.slack,
        attempts: attempts.map(toAttempt),
      });
    },
  );
};
