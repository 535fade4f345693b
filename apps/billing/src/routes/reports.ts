import { badRequest, ok, responses, Type, type Access, type Static } from '@platform/core';
import type { BillingRoutes } from '../domain/state.js';
import { searchItems } from '../repositories/items.js';
import { breakdown, countStored, NONE, summarize, trend } from '../repositories/reports.js';
import { ItemSchema, SearchQuery, toItem, toItemFilter } from '../schemas/items.js';
import {
  BreakdownQuery,
  BreakdownRowSchema,
  StatusSchema,
  SummaryQuery,
  SummarySchema,
  TrendPointSchema,
  TrendQuery,
} from '../schemas/reports.js';

// Reports, the status and search are shared knowledge: any signed-in caller reads them.
const REPORT: Access = { resource: 'billing.report', action: 'read' };
const STATUS: Access = { resource: 'billing.status', action: 'read' };
const SEARCH: Access = { resource: 'billing.item', action: 'read' };

const MAX_INTERVALS = 10_000;
const DAYS_PER = { day: 1, week: 7, month: 28 };

/** Read-only views over the items: reports, the status of the service, and search. */
export const reportRoutes: BillingRoutes = async (app, { db, config, storage }) => {
  /** The filter of a report: one currency (the configured one by default), whole days. */
  const filterOf = (query: Static<typeof SummaryQuery>) => ({
    ...toItemFilter(query),
    currency: (query.currency ?? config.currency).toUpperCase(),
  });

  app.get(
    '/reports/summary',
    {
      config: { access: REPORT },
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
      config: { access: REPORT },
      schema: {
        operationId: 'reportBreakdown',
        summary:
          'Spending by provider, category, service, recurring, tag, account, region or charge category',
        description: `Largest first; items without the key under ${NONE}. By tag, an item counts under each of its tags, so percentages are of the sum of the rows. account, region and chargeCategory come from FOCUS imports (SubAccountName or SubAccountId, RegionName or RegionId, ChargeCategory). Amounts are exact sums in whole cents that add up to the exact total rounded once.`,
        querystring: BreakdownQuery,
        response: responses({ 200: Type.Array(BreakdownRowSchema) }),
      },
    },
    async (request) => {
      const rows = await breakdown(db, filterOf(request.query), request.query.by);
      const total = rows.reduce((sum, r) => sum + r.amount, 0);
      // Each row's share of the total, two decimals.
      const percentage = (amount: number) =>
        total === 0 ? 0 : Math.round((amount / total) * 10000) / 100;
      return ok(rows.map((r) => ({ ...r, percentage: percentage(r.amount) })));
    },
  );

  app.get(
    '/reports/trend',
    {
      config: { access: REPORT },
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
      const { interval, from, to } = request.query;
      const filter = filterOf(request.query);
      if (filter.from && filter.to) {
        const days = (filter.to.getTime() - filter.from.getTime()) / 86_400_000;
        if (days / DAYS_PER[interval] > MAX_INTERVALS)
          throw badRequest(
            `The range has more than ${MAX_INTERVALS} ${interval}s; narrow it or take a longer interval`,
          );
      }
      return ok(await trend(db, filter, interval, { from, to }));
    },
  );

  app.get(
    '/status',
    {
      config: { access: STATUS },
      schema: {
        operationId: 'getStatus',
        summary: 'State of the billing service',
        description: 'totalAmount counts the items in the configured currency (cents).',
        response: responses({ 200: StatusSchema }),
      },
    },
    async () => {
      const stored = await countStored(db, config.currency);
      return ok({
        initialized: true,
        config: { version: 1, currency: config.currency },
        totalItems: stored.items,
        totalCategories: stored.categories,
        totalSyncJobs: stored.syncJobs,
        totalAmount: stored.totalAmount,
        currency: config.currency,
        storageType: storage,
      });
    },
  );

  app.get(
    '/search',
    {
      config: { access: SEARCH },
      schema: {
        operationId: 'search',
        summary: 'Search items by name, description, provider, category and tags',
        description:
          'Case-insensitive; name matches first (exact, prefix, contains), then the rest; newest first within a rank.',
        querystring: SearchQuery,
        response: responses({ 200: Type.Array(ItemSchema) }),
      },
    },
    async (request) => {
      const term = request.query.q.trim().toLowerCase();
      if (term === '') throw badRequest('q (the search term) must not be empty');
      return ok((await searchItems(db, term, request.query.limit)).map(toItem));
    },
  );
};
