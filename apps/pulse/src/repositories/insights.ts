import { sql, type RawBuilder } from '@platform/db';
import type { PulseDb } from '../database.js';
import type { Interval } from '../domain/insights-time.js';

// The SQL of the insights (trends here, funnels and retention in insights-funnels.ts). A person is
// `coalesce(person_ids.person_id, events.user_id)`: the ids merged by identify and alias count as
// one; events without a user id count in totals only.

export const EVENTS = sql.table('pulse.events');
export const PERSON_IDS = sql.table('pulse.person_ids');
export const PERSON = sql`coalesce(p.person_id, e.user_id)`;
export const JOIN_PERSONS = sql`left join ${PERSON_IDS} p on p.distinct_id = e.user_id`;

/**
 * The start of the period holding `e.timestamp`, as an instant: as `periodStart` in
 * domain/insights-time.ts computes it (hour: the top of the local hour, so that the repeated
 * hour of a DST change is two periods; else the local midnight the period starts at).
 */
export function bucketSql(
  interval: Interval,
  zone: string,
  column: RawBuilder<unknown> = sql`e.timestamp`,
) {
  const local = sql`(${column} at time zone ${zone})`;
  if (interval === 'hour') return sql`${column} - (${local} - date_trunc('hour', ${local}))`;
  return sql`(date_trunc(${sql.lit(interval)}, ${local}) at time zone ${zone})`;
}

export interface TrendsFilter {
  event: string;
  from: Date;
  to: Date;
  interval: Interval;
  zone: string;
  unique: boolean;
  breakdown?: string;
  breakdownLimit: number;
}

export interface TrendRow {
  bucket: Date | string;
  value: string | null;
  count: number;
  total: number;
}

const QUARTER = 15 * 60_000;

/**
 * The events a trend counts, a row per event (`n` 1) or, for a total without breakdown, a row
 * per quarter hour of the rollups (`n` its count) plus the events of the range's ends that do
 * not fill a quarter hour.
 */
function picked(f: TrendsFilter) {
  const [from, to] = [f.from.getTime(), f.to.getTime()];
  const rollFrom = Math.ceil(from / QUARTER) * QUARTER;
  const rollTo = Math.floor((to + 1) / QUARTER) * QUARTER;
  if (!f.unique && f.breakdown === undefined && rollFrom < rollTo)
    return sql`
      select ${bucketSql(f.interval, f.zone, sql`r.slot`)} as bucket, null::text as value,
        null::text as person, r.count as n
      from ${sql.table('pulse.event_rollups')} r
      where r.name = ${f.event} and r.slot >= ${new Date(rollFrom)} and r.slot < ${new Date(rollTo)}
      union all
      select ${bucketSql(f.interval, f.zone)}, null, null, 1
      from ${EVENTS} e where e.name = ${f.event} and (
        (e.timestamp >= ${f.from} and e.timestamp < ${new Date(rollFrom)}) or
        (e.timestamp >= ${new Date(rollTo)} and e.timestamp <= ${f.to}))`;
  const value = f.breakdown === undefined ? sql`null::text` : sql`e.properties ->> ${f.breakdown}`;
  return sql`
    select ${bucketSql(f.interval, f.zone)} as bucket, ${value} as value,
      ${f.unique ? PERSON : sql`null::text`} as person, 1 as n
    from ${EVENTS} e ${f.unique ? JOIN_PERSONS : sql``}
    where e.name = ${f.event} and e.timestamp >= ${f.from} and e.timestamp <= ${f.to}`;
}

/**
 * Counts per period (and per breakdown value, the `breakdownLimit` largest), with each value's
 * total over the range: one scan, `grouping sets` giving both (distinct persons over the range
 * are not the sum of each period's). Periods without events are absent here.
 */
export async function trendRows(db: PulseDb, f: TrendsFilter): Promise<TrendRow[]> {
  const measure = f.unique ? sql`count(distinct person)` : sql`sum(n)`;
  const result = await sql<TrendRow>`
    with picked as (${picked(f)}), counted as (
      select bucket, value, ${measure}::int as count, grouping(bucket) as whole
      from picked group by grouping sets ((bucket, value), (value))
    ), top as (
      select value, count as total from counted where whole = 1
      order by count desc, value nulls last limit ${f.breakdownLimit}
    )
    select c.bucket, t.value, c.count, t.total
    from top t join counted c on c.value is not distinct from t.value and c.whole = 0
    order by t.total desc, t.value nulls last, c.bucket`.execute(db);
  return result.rows;
}
