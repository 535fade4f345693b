import { sql } from '@platform/db';
import type { BillingDb } from '../database.js';
import { filteredItems, type ItemFilter } from './items.js';

/** The label of the items without the breakdown's key. */
export const NONE = '(none)';

export const BREAKDOWN_KEYS = ['provider', 'category', 'service', 'recurring', 'tag'] as const;
export type BreakdownKey = (typeof BREAKDOWN_KEYS)[number];

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The sum (cents) and count of the matching items. */
export async function summarize(db: BillingDb, filter: ItemFilter) {
  const row = await filteredItems(db, filter)
    .select([
      sql<string>`coalesce(sum(amount), 0)`.as('total'),
      sql<number>`count(*)::int`.as('count'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), count: row.count };
}

/**
 * Sum and count per key, largest first (ties by key); items without the key under NONE. By tag,
 * an item counts under each of its tags.
 */
export async function breakdown(db: BillingDb, filter: ItemFilter, by: BreakdownKey) {
  const key =
    by === 'tag'
      ? sql<string>`coalesce(tag.value, ${NONE})`
      : by === 'recurring'
        ? sql<string>`recurring::text`
        : sql<string>`coalesce(${sql.ref(by)}, ${NONE})`;
  let query = filteredItems(db, filter);
  if (by === 'tag')
    query = query.leftJoin(
      sql<{ value: string }>`jsonb_array_elements_text(tags)`.as('tag'),
      (join) => join.onTrue(),
    ) as typeof query;
  const rows = await query
    .select([
      key.as('key'),
      sql<string>`sum(amount)`.as('amount'),
      sql<number>`count(*)::int`.as('count'),
    ])
    .groupBy(sql`1`)
    .orderBy(sql`sum(amount)`, 'desc')
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => ({ key: r.key, amount: Number(r.amount), count: r.count }));
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
  const bucket = sql`date_trunc(${unit}, date at time zone 'UTC')`;
  const format = unit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  const grouped = filteredItems(db, filter)
    .select([bucket.as('bucket'), sql`sum(amount)`.as('amount'), sql`count(*)::int`.as('count')])
    .groupBy(sql`1`);
  const bound = (day: string | undefined, fallback: string) =>
    day === undefined ? sql.raw(fallback) : sql`date_trunc(${unit}, ${day}::timestamp)`;
  const { rows } = await sql<{ date: string; amount: string; count: number }>`
    with grouped as (${grouped}),
    span as (
      select ${bound(days.from, '(select min(bucket) from grouped)')} as first,
             ${bound(days.to, '(select max(bucket) from grouped)')} as last
    )
    select to_char(series.bucket, ${format}) as date,
           coalesce(grouped.amount, 0) as amount,
           coalesce(grouped.count, 0) as count
    from span, generate_series(span.first, span.last, ${`1 ${unit}`}::interval) as series(bucket)
    left join grouped on grouped.bucket = series.bucket
    order by series.bucket`.execute(db);
  return rows.map((r) => ({ date: r.date, amount: Number(r.amount), count: Number(r.count) }));
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
