import {
  badRequest,
  ok,
  parseRange,
  responses,
  Type,
  type ServiceRoutes,
  type Static,
} from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase } from '../database.js';
import { toItemFilter } from '../mappers.js';
import type { ItemFilter } from '../repositories/items.js';
import { breakdown, NONE, summarize, trend, type Interval } from '../repositories/reports.js';
import {
  BreakdownQuery,
  BreakdownRowSchema,
  SummaryQuery,
  SummarySchema,
  TrendPointSchema,
  TrendQuery,
} from '../schemas/reports.js';

const MAX_INTERVALS = 10_000;
const DAYS_PER: Record<Interval, number> = { day: 1, week: 7, month: 28 };

/** Two decimals of `amount`'s share of `total`. */
const percentage = (amount: number, total: number) =>
  total === 0 ? 0 : Math.round((amount / total) * 10000) / 100;

export const reportRoutes: ServiceRoutes<BillingDatabase, BillingConfig> = async (
  app,
  { db, config },
) => {
  /** The filter of a report: one currency (the configured one by default), whole days. */
  const filterOf = (query: Static<typeof SummaryQuery>): ItemFilter & { currency: string } => {
    const { from, to, currency, ...filters } = query;
    return {
      ...toItemFilter(filters),
      ...parseRange({ from, to }),
      currency: (currency ?? config.currency).toUpperCase(),
    };
  };

  app.get(
    '/reports/summary',
    {
      schema: {
        operationId: 'reportSummary',
        summary: 'Total spending',
        querystring: SummaryQuery,
        response: responses({ 200: SummarySchema }),
      },
    },
    async (request) => {
      const filter = filterOf(request.query);
      const { total, count } = await summarize(db, filter);
      return ok({
        totalAmount: total,
        itemCount: count,
        currency: filter.currency,
        from: request.query.from ?? null,
        to: request.query.to ?? null,
      });
    },
  );

  app.get(
    '/reports/breakdown',
    {
      schema: {
        operationId: 'reportBreakdown',
        summary: 'Spending by provider, category, service, recurring or tag',
        description: `Largest first; items without the key under ${NONE}. By tag, an item counts under each of its tags, so percentages are of the sum of the rows.`,
        querystring: BreakdownQuery,
        response: responses({ 200: Type.Array(BreakdownRowSchema) }),
      },
    },
    async (request) => {
      const { by, ...query } = request.query;
      const rows = await breakdown(db, filterOf(query), by);
      const total = rows.reduce((sum, r) => sum + r.amount, 0);
      return ok(rows.map((r) => ({ ...r, percentage: percentage(r.amount, total) })));
    },
  );

  app.get(
    '/reports/trend',
    {
      schema: {
        operationId: 'reportTrend',
        summary: 'Spending per day, week or month',
        description:
          'Every interval from `from` to `to` (or from the first to the last item) appears, empty ones with 0. date: YYYY-MM-DD (day), the Monday of the ISO week as YYYY-MM-DD (week), YYYY-MM (month), in UTC.',
        querystring: TrendQuery,
        response: responses({ 200: Type.Array(TrendPointSchema) }),
      },
    },
    async (request) => {
      const { interval, ...query } = request.query;
      const filter = filterOf(query);
      if (filter.from && filter.to) {
        const days = (filter.to.getTime() - filter.from.getTime()) / 86_400_000;
        if (days / DAYS_PER[interval] > MAX_INTERVALS)
          throw badRequest(
            `The range has more than ${MAX_INTERVALS} ${interval}s; narrow it or take a longer interval`,
          );
      }
      return ok(await trend(db, filter, interval, { from: query.from, to: query.to }));
    },
  );
};
