import { ok, responses, type Access } from '@platform/core';
import { funnels, retention, trends } from '../domain/insights.js';
import {
  FunnelsQuery,
  FunnelsSchema,
  RetentionQuery,
  RetentionSchema,
  TrendsQuery,
  TrendsSchema,
} from '../schemas/insights.js';
import type { PulseRoutes } from '../domain/state.js';

/** Reading insights: as reading reports (a `pulse:ingest` key reads nothing). */
const READ: Access = { resource: 'pulse.insight', action: 'read' };

const ZONES =
  ' Periods and bare dates are in tz (an IANA zone or an offset; a DST day has 23 or 25 hours).';

export const insightRoutes: PulseRoutes = async (app, { db }) => {
  app.get(
    '/insights/trends',
    {
      config: { access: READ },
      schema: {
        operationId: 'insightTrends',
        summary: 'An event over time',
        description:
          'Events (math=total) or distinct persons (math=unique_users) per hour, day, week or month, every period ' +
          'of the range present (0 when empty); with breakdown, a series per property value (the breakdownLimit ' +
          'largest). The range defaults to the 30 days up to now.' +
          ZONES,
        querystring: TrendsQuery,
        response: responses({ 200: TrendsSchema }),
      },
    },
    async (request) => ok(await trends(db, request.query)),
  );

  app.get(
    '/insights/funnels',
    {
      config: { access: READ },
      schema: {
        operationId: 'insightFunnels',
        summary: 'Persons through ordered steps',
        description:
          'Persons who did the steps in order, each within window seconds of their first step, all in the range ' +
          '(default: the 30 days up to now): count and conversion per step, over the first and the previous. ' +
          'With breakdown, the funnel per value of the property on each person’s first first-step event.' +
          ZONES,
        querystring: FunnelsQuery,
        response: responses({ 200: FunnelsSchema }),
      },
    },
    async (request) => ok(await funnels(db, request.query)),
  );

  app.get(
    '/insights/retention',
    {
      config: { access: READ },
      schema: {
        operationId: 'insightRetention',
        summary: 'Cohorts and who comes back',
        description:
          'A cohort per day or week of the range: the persons whose first event ever fell in it; then, per later ' +
          'period up to the end of the range, how many of them did returnEvent (default event) and their share. ' +
          'Empty cohorts are present with size 0. The range defaults to 14 days (day) or 8 weeks (week) up to now.' +
          ZONES,
        querystring: RetentionQuery,
        response: responses({ 200: RetentionSchema }),
      },
    },
    async (request) => ok(await retention(db, request.query)),
  );
};
