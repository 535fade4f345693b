import { sql } from '@platform/db';
import type { BillingDb, Page } from '../database.js';
import { filteredItems, type ItemFilter } from './items.js';
import {
  apportion,
  bucketOf,
  keyOf,
  NONE,
  rounded,
  trendOf,
  UNMATCHED,
  type BreakdownKey,
  type CatalogKey,
  type Interval,
} from './reports.js';
import { catalogConditions, loadAllocations, spendRows } from './spend.js';

// Reports over spend rows (items resolved to catalog services, allocations applied): what the
// reports answer when they filter or break down by catalog service, system or owner.

/** The catalog filters of a report: ids or names, any case. */
export interface CatalogFilter {
  catalogService?: string;
  system?: string;
  owner?: string;
}

export const hasCatalogFilter = (filter: CatalogFilter) =>
  filter.catalogService !== undefined || filter.system !== undefined || filter.owner !== undefined;

/** The spend rows of the items of a filter, and the condition on their catalog fields. */
async function spendOf(db: BillingDb, filter: ItemFilter, catalog: CatalogFilter) {
  const allocations = await loadAllocations(db);
  return {
    rows: spendRows(db, filteredItems(db, filter), allocations, filter),
    where: await catalogConditions(db, {
      service: catalog.catalogService,
      system: catalog.system,
      owner: catalog.owner,
    }),
  };
}

const SUM = sql`coalesce(sum(exact), 0)::text`;
const COUNT = sql`count(distinct id)::int`;

/** The total (the exact sum rounded once) and the count of the items that make it. */
export async function catalogSummary(db: BillingDb, filter: ItemFilter, catalog: CatalogFilter) {
  const { rows, where } = await spendOf(db, filter, catalog);
  const { rows: found } = await sql<{ total: string; count: number }>`
    select ${SUM} as total, ${COUNT} as count from ${rows} as spend where ${where}`.execute(db);
  return { total: rounded(found[0].total), count: found[0].count };
}

/** The key of a catalog breakdown: unmatched spend is (unmatched), a service without one (none). */
function catalogKeyOf(by: CatalogKey) {
  if (by === 'catalogService') return sql<string>`coalesce(catalog_service, ${UNMATCHED})`;
  const column = sql.ref(by === 'system' ? 'catalog_system' : 'catalog_owner');
  return sql<string>`case when catalog_service is null then ${UNMATCHED}
    else coalesce(${column}, ${NONE}) end`;
}

/** The names of catalog keys, from the snapshot: services and systems by id. */
async function namesOf(db: BillingDb, by: BreakdownKey): Promise<Map<string, string>> {
  if (by === 'catalogService') {
    const rows = await db.selectFrom('catalog_services').select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
  if (by === 'system') {
    const rows = await db
      .selectFrom('catalog_services')
      .select(['system', 'system_name'])
      .where('system', 'is not', null)
      .distinct()
      .execute();
    return new Map(rows.map((r) => [r.system as string, r.system_name ?? (r.system as string)]));
  }
  return new Map();
}

/**
 * Sum and count per key over spend rows, largest first (ties by key), amounts in whole cents
 * adding up to the exact total rounded once; by catalog service and system, `name` too.
 */
export async function catalogBreakdown(
  db: BillingDb,
  filter: ItemFilter,
  by: BreakdownKey,
  catalog: CatalogFilter,
) {
  const { rows, where } = await spendOf(db, filter, catalog);
  const catalogKey = by === 'catalogService' || by === 'system' || by === 'owner';
  const key = catalogKey ? catalogKeyOf(by) : keyOf(by);
  const tags = by === 'tag' ? sql`left join jsonb_array_elements_text(tags) as tag on true` : sql``;
  const { rows: found } = await sql<{ key: string; amount: string; count: number }>`
    select ${key} as key, ${SUM} as amount, ${COUNT} as count
    from ${rows} as spend ${tags} where ${where}
    group by 1 order by sum(exact) desc, 1`.execute(db);
  const cents = apportion(found.map((r) => r.amount));
  const names = await namesOf(db, by);
  return found.map((r, i) => ({
    key: r.key,
    ...(catalogKey && by !== 'owner' ? { name: names.get(r.key) ?? null } : {}),
    amount: cents[i],
    count: r.count,
  }));
}

/** The trend of the spend rows of a filter (see trendOf). */
export async function catalogTrend(
  db: BillingDb,
  filter: ItemFilter,
  unit: Interval,
  days: { from?: string; to?: string },
  catalog: CatalogFilter,
) {
  const { rows, where } = await spendOf(db, filter, catalog);
  const grouped = sql`select ${bucketOf(unit)} as bucket, sum(exact) as amount, ${COUNT} as count
    from ${rows} as spend where ${where} group by 1`;
  return trendOf(db, grouped, unit, days);
}

/**
 * Unmatched spend (no catalog service, allocations applied) per provider and raw service,
 * largest first: what owner rules are still missing for. Amounts: each exact sum rounded.
 */
export async function unmatchedSpend(db: BillingDb, filter: ItemFilter, page: Page) {
  const { rows } = await spendOf(db, filter, {});
  const { rows: found } = await sql<{
    provider: string | null;
    service: string | null;
    exact: string;
    count: number;
    first: Date;
    last: Date;
  }>`
    select provider, service, sum(exact)::text as exact, ${COUNT} as count,
           min(date) as first, max(date) as last
    from ${rows} as spend where catalog_service is null
    group by 1, 2 order by sum(exact) desc, 1 nulls first, 2 nulls first
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return found.map((r) => ({
    provider: r.provider,
    service: r.service,
    amount: rounded(r.exact),
    exactAmount: r.exact,
    count: r.count,
    firstDate: new Date(r.first).toISOString(),
    lastDate: new Date(r.last).toISOString(),
  }));
}
