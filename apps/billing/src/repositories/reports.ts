import Big from 'big.js';
import { sql, type CompiledQuery } from '@platform/db';

/** A query to embed (Kysely's builders and raw SQL alike). */
type Compilable = { compile(): CompiledQuery } | ReturnType<typeof sql>;
import type { BillingDb } from '../database.js';
import { filteredItems, type ItemFilter } from './items.js';

/** The label of the items without the breakdown's key. */
export const NONE = '(none)';

export const BREAKDOWN_KEYS = [
  'provider',
  'category',
  'service',
  'recurring',
  'tag',
  'account',
  'region',
  'chargeCategory',
  'catalogService',
  'system',
  'owner',
] as const;
export type BreakdownKey = (typeof BREAKDOWN_KEYS)[number];
/** The keys of catalog services (resolved, allocations applied): spend rows rather than items. */
export const CATALOG_KEYS = ['catalogService', 'system', 'owner'] as const;
export type CatalogKey = (typeof CATALOG_KEYS)[number];
export const isCatalogKey = (by: BreakdownKey): by is CatalogKey =>
  (CATALOG_KEYS as readonly string[]).includes(by);

/** The label of spend that resolves to no catalog service. */
export const UNMATCHED = '(unmatched)';

/** Keys read from an imported item's FOCUS dimensions: the first of these columns it has. */
const DIMENSION_KEYS: Partial<Record<BreakdownKey, string[]>> = {
  account: ['SubAccountName', 'SubAccountId'],
  region: ['RegionName', 'RegionId'],
  chargeCategory: ['ChargeCategory'],
};

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/**
 * An item's exact amount in cents: the decimal it was rounded from when it has one (imported
 * items), else its cents. Reports sum these and round once, so sub-cent rows are not lost.
 */
export const EXACT = sql`coalesce(exact_amount, amount::numeric)`;
const exactSum = sql<string>`coalesce(sum(${EXACT}), 0)::text`;

/** Cents of an exact decimal: half away from zero, as the adapters round. */
export const rounded = (exact: string) => Number(new Big(exact).round(0, 1).toString());

/**
 * Whole cents for each exact sum such that they add up to their exact total rounded once
 * (largest remainders): each value moves at most one cent from its own rounding, so a report's
 * rows add up to its summary exactly.
 */
export function apportion(exacts: string[]): number[] {
  const cents = exacts.map(rounded);
  const total = rounded(exacts.reduce((sum, e) => sum.plus(e), new Big(0)).toFixed());
  let gap = total - cents.reduce((sum, c) => sum + c, 0);
  // What each row gave up (+) or gained (-) by rounding; a gap goes to those that gave most.
  const error = exacts.map((e, i) => new Big(e).minus(cents[i]));
  const order = exacts.map((_, i) => i).sort((a, b) => error[b].cmp(error[a]) || a - b);
  for (let k = 0; gap > 0 && k < order.length; k++, gap--) cents[order[k]] += 1;
  for (let k = order.length - 1; gap < 0 && k >= 0; k--, gap++) cents[order[k]] -= 1;
  return cents;
}

/** The sum (cents: the exact sum rounded once) and count of the matching items. */
export async function summarize(db: BillingDb, filter: ItemFilter) {
  const row = await filteredItems(db, filter)
    .select([exactSum.as('total'), sql<number>`count(*)::int`.as('count')])
    .executeTakeFirstOrThrow();
  return { total: rounded(row.total), count: row.count };
}

/** The key of a breakdown by an item's own column (its dimensions, a tag of its `tag`). */
export function keyOf(by: Exclude<BreakdownKey, CatalogKey>) {
  const columns = DIMENSION_KEYS[by];
  return columns
    ? sql<string>`coalesce(${sql.join(columns.map((c) => sql`dimensions->>${c}`))}, ${NONE})`
    : by === 'tag'
      ? sql<string>`coalesce(tag.value, ${NONE})`
      : by === 'recurring'
        ? sql<string>`recurring::text`
        : sql<string>`coalesce(${sql.ref(by)}, ${NONE})`;
}

/** The start of a date's interval, in UTC. */
export const bucketOf = (unit: Interval) => sql`date_trunc(${unit}, date at time zone 'UTC')`;

/**
 * Sum and count per key, largest first (ties by key); items without the key under NONE. By tag,
 * an item counts under each of its tags.
 */
export async function breakdown(
  db: BillingDb,
  filter: ItemFilter,
  by: Exclude<BreakdownKey, CatalogKey>,
) {
  const key = keyOf(by);
  let query = filteredItems(db, filter);
  if (by === 'tag')
    query = query.leftJoin(
      sql<{ value: string }>`jsonb_array_elements_text(tags)`.as('tag'),
      (join) => join.onTrue(),
    ) as typeof query;
  const rows = await query
    .select([key.as('key'), exactSum.as('amount'), sql<number>`count(*)::int`.as('count')])
    .groupBy(sql`1`)
    .orderBy(sql`sum(${EXACT})`, 'desc')
    .orderBy(sql`1`)
    .execute();
  const cents = apportion(rows.map((r) => r.amount));
  return rows.map((r, i) => ({ key: r.key, amount: cents[i], count: r.count }));
}

/**
 * Sum and count per interval (UTC), every interval from the first day (or the first item's) to
 * the last day (or the last item's), empty ones with 0. `date` is YYYY-MM-DD, YYYY-MM by month.
 */
export async function trend(
  db: BillingDb,
  filter: ItemFilter,
  unit: Interval,
  days: { from?: string; to?: string },
) {
  const bucket = bucketOf(unit);
  const grouped = filteredItems(db, filter)
    .select([bucket.as('bucket'), sql`sum(${EXACT})`.as('amount'), sql`count(*)::int`.as('count')])
    .groupBy(sql`1`);
  return trendOf(db, grouped, unit, days);
}

/**
 * The trend of `grouped` (bucket: the interval's start, amount: its exact sum, count), every
 * interval of the span present.
 */
export async function trendOf(
  db: BillingDb,
  grouped: Compilable,
  unit: Interval,
  days: { from?: string; to?: string },
) {
  const format = unit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  const bound = (day: string | undefined, fallback: string) =>
    day === undefined ? sql.raw(fallback) : sql`date_trunc(${unit}, ${day}::timestamp)`;
  const { rows } = await sql<{ date: string; amount: string; count: number }>`
    with grouped as (${grouped}),
    span as (
      select ${bound(days.from, '(select min(bucket) from grouped)')} as first,
             ${bound(days.to, '(select max(bucket) from grouped)')} as last
    )
    select to_char(series.bucket, ${format}) as date,
           coalesce(grouped.amount, 0)::text as amount,
           coalesce(grouped.count, 0) as count
    from span, generate_series(span.first, span.last, ${`1 ${unit}`}::interval) as series(bucket)
    left join grouped on grouped.bucket = series.bucket
    order by series.bucket`.execute(db);
  const cents = apportion(rows.map((r) => r.amount));
  return rows.map((r, i) => ({ date: r.date, amount: cents[i], count: Number(r.count) }));
}

/** How many items, categories and sync jobs are stored, and the sum of the items in `currency`. */
export async function countStored(db: BillingDb, currency: string) {
  const count = (table: 'items' | 'categories' | 'sync_jobs') =>
    db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
  const [items, categories, syncJobs, { total }] = await Promise.all([
    count('items'),
    count('categories'),
    count('sync_jobs'),
    summarize(db, { currency }),
  ]);
  return { items: items.n, categories: categories.n, syncJobs: syncJobs.n, totalAmount: total };
}
