import { badRequest, ok, responses, Type, type Access, type Static } from '@platform/core';
import { catalogState } from '../domain/owners.js';
import type { BillingRoutes } from '../domain/state.js';
import { searchItems } from '../repositories/items.js';
import {
  catalogBreakdown,
  catalogSummary,
  catalogTrend,
  hasCatalogFilter,
  unmatchedSpend,
} from '../repositories/owners-reports.js';
import {
  breakdown,
  countStored,
  isCatalogKey,
  NONE,
  summarize,
  trend,
  UNMATCHED,
} from '../repositories/reports.js';
import { ItemSchema, SearchQuery, toItem, toItemFilter } from '../schemas/items.js';
import {
  BreakdownQuery,
  BreakdownRowSchema,
  StatusSchema,
  SummaryQuery,
  SummarySchema,
  TrendPointSchema,
  TrendQuery,
  UnmatchedQuery,
  UnmatchedRowSchema,
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
  /** The catalog filters of a report (spend rows rather than items when any is given). */
  const catalogOf = ({ catalogService, system, owner }: Static<typeof SummaryQuery>) => ({
    catalogService,
    system,
    owner,
  });
  const CATALOG_NOTE =
    ' catalogService, system and owner count spend resolved to catalog services with the allocation rules applied (GET /allocations); the item count is of the items that make it.';

  app.get(
    '/reports/summary',
    {
      config: { access: REPORT },
      schema: {
        operationId: 'reportSummary',
        summary: 'Total spending',
        description: `Items in one currency (the configured one by default).${CATALOG_NOTE}`,
        querystring: SummaryQuery,
        response: responses({ 200: SummarySchema }),
      },
    },
    async (request) => {
      const filter = filterOf(request.query);
      const catalog = catalogOf(request.query);
      const { total, count } = hasCatalogFilter(catalog)
        ? await catalogSummary(db, filter, catalog)
        : await summarize(db, filter);
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
          'Spending by provider, category, service, recurring, tag, account, region, charge category, catalog service, system or owner',
        description: `Largest first; items without the key under ${NONE}. By catalogService, system and owner: spend resolved to catalog services with the allocation rules applied, unmatched spend under ${UNMATCHED} (GET /reports/unmatched lists it), a service without a system or owner under ${NONE}. By tag, an item counts under each of its tags, so percentages are of the sum of the rows. account, region and chargeCategory come from FOCUS imports (SubAccountName or SubAccountId, RegionName or RegionId, ChargeCategory). Amounts are exact sums in whole cents that add up to the exact total rounded once.`,
        querystring: BreakdownQuery,
        response: responses({ 200: Type.Array(BreakdownRowSchema) }),
      },
    },
    async (request) => {
      const { by } = request.query;
      const filter = filterOf(request.query);
      const catalog = catalogOf(request.query);
      const rows =
        isCatalogKey(by) || hasCatalogFilter(catalog)
          ? await catalogBreakdown(db, filter, by, catalog)
          : await breakdown(db, filter, by);
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
      const catalog = catalogOf(request.query);
      return ok(
        hasCatalogFilter(catalog)
          ? await catalogTrend(db, filter, interval, { from, to }, catalog)
          : await trend(db, filter, interval, { from, to }),
      );
    },
  );

  app.get(
    '/reports/unmatched',
    {
      config: { access: REPORT },
      schema: {
        operationId: 'reportUnmatched',
        summary: 'Spend that resolves to no catalog service',
        description:
          'Per provider and raw service, largest first, allocations applied: what owner rules (POST /owner-rules) or catalog services are missing for. Items in one currency (the configured one by default).',
        querystring: UnmatchedQuery,
        response: responses({ 200: Type.Array(UnmatchedRowSchema) }),
      },
    },
    async (request) => {
      const { limit, offset, ...query } = request.query;
      return ok(await unmatchedSpend(db, filterOf(query), { limit, offset }));
    },
  );

  app.get(
    '/status',
    {
      config: { access: STATUS },
      schema: {
        operationId: 'getStatus',
        summary: 'State of the billing service',
        description:
          "totalAmount counts the items in the configured currency (cents). catalog: billing's snapshot of the catalog (stale: the last attempt to read it failed, and items resolve by the snapshot of fetchedAt).",
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
        catalog: await catalogState(db),
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
