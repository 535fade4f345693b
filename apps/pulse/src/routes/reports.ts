import { badRequest, ok, parseRange, responses, serviceUnavailable, Type } from '@platform/core';
import { sqlState } from '@platform/db';
import { SERVICE_QUERY_TIMEOUT_MS, topEvents } from '../repositories/events.js';
import { TopEventSchema, TopEventsQuery } from '../schemas/events.js';
import type { PulseRoutes } from '../domain/state.js';

export const reportRoutes: PulseRoutes = async (app, { db }) => {
  app.get(
    '/reports/top-events',
    {
      config: { access: { resource: 'pulse.report', action: 'read' } },
      schema: {
        operationId: 'topEvents',
        summary: 'Most frequent event names',
        description:
          'Event names by count, highest first (ties by name); with `property=service` and `value`, only the events whose `service` property has that value (as text, indexed; no other property may be filtered by, and such a count is cancelled after 5 s: 503).',
        querystring: TopEventsQuery,
        response: responses({ 200: Type.Array(TopEventSchema) }),
      },
    },
    async (request) => {
      const { property, value, limit } = request.query;
      if ((property === undefined) !== (value === undefined))
        throw badRequest('property and value go together: send both or neither');
      if (property !== undefined && property !== 'service')
        throw badRequest(
          `Only the property service can be counted by (it is indexed), not ${property}`,
        );
      const filter = { ...parseRange(request.query), service: value };
      try {
        return ok(await topEvents(db, filter, limit));
      } catch (error) {
        // query_canceled: the statement_timeout of a count by service.
        if (sqlState(error) === '57014')
          throw serviceUnavailable(
            `Counting the events of service ${value} took longer than ${SERVICE_QUERY_TIMEOUT_MS} ms: narrow from and to`,
          );
        throw error;
      }
    },
  );
};
