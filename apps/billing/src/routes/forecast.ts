import { badRequest, ok, responses, type Access } from '@platform/core';
import { dayOf, forecastSpend, parseDay, today } from '../domain/forecast.js';
import type { BillingRoutes } from '../domain/state.js';
import { ForecastQuery, ForecastSchema } from '../schemas/budgets.js';

// Reports are shared knowledge: any signed-in caller reads them.
const REPORT: Access = { resource: 'billing.report', action: 'read' };

export const forecastRoutes: BillingRoutes = async (app, { db, config }) => {
  app.get(
    '/reports/forecast',
    {
      config: { access: REPORT },
      schema: {
        operationId: 'reportForecast',
        summary: "The month's spend forecast for its last day",
        description:
          'spent (the month so far, through asOf) + runRate × daysRemaining, where runRate is the median daily spend of the BILLING_FORECAST_WINDOW_DAYS days ending with asOf (days without spend count as 0), so that a single large charge does not move the projection. UTC days; exact sums rounded once. Filters: a catalog service (id or name), a catalog owner, a provider.',
        querystring: ForecastQuery,
        response: responses({ 200: ForecastSchema }),
      },
    },
    async ({ query }) => {
      const { service, owner, provider, asOf } = query;
      const currency = (query.currency ?? config.currency).toUpperCase();
      const day = asOf === undefined ? today() : parseDay(asOf);
      if (Number.isNaN(day.getTime()) || (asOf !== undefined && dayOf(day) !== asOf))
        throw badRequest(`asOf must be a day of the calendar (YYYY-MM-DD), got ${asOf}`);
      const windowDays = config.budgets.forecastWindowDays;
      const filter = { service, owner, provider, currency };
      const forecast = await forecastSpend(db, filter, 'month', day, windowDays);
      return ok({ ...forecast, currency });
    },
  );
};
