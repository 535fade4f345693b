import {
  Instant,
  Type,
  ok,
  parseRange,
  responses,
  type FastifyPluginAsyncTypebox,
} from '@platform/core';
import { topEvents, type PulseDb } from '../repository.js';

const TopEventsQuery = Type.Object({
  from: Type.Optional(Instant('Count events at or after')),
  to: Type.Optional(Instant('Count events at or before')),
  limit: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'How many names (1-1000, default 10)',
  }),
});

const TopEventRow = Type.Object({ name: Type.String(), count: Type.Integer() });

export const reportRoutes: FastifyPluginAsyncTypebox<{ pulse: PulseDb }> = async (
  app,
  { pulse },
) => {
  app.get(
    '/reports/top-events',
    {
      schema: {
        tags: ['pulse'],
        summary: 'Most frequent event names',
        description: 'Event names by count, highest first (ties by name).',
        querystring: TopEventsQuery,
        response: responses({ 200: Type.Array(TopEventRow) }),
      },
    },
    async (request) => ok(await topEvents(pulse, parseRange(request.query), request.query.limit)),
  );
};
