import { ok, parseRange, responses, Type } from '@platform/core';
import { topEvents } from '../repositories/events.js';
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
        description: 'Event names by count, highest first (ties by name).',
        querystring: TopEventsQuery,
        response: responses({ 200: Type.Array(TopEventSchema) }),
      },
    },
    async (request) => ok(await topEvents(db, parseRange(request.query), request.query.limit)),
  );
};
