import { sql } from '@platform/db';
import type { PulseDb } from '../database.js';
import { EVENTS, JOIN_PERSONS, PERSON } from './insights.js';

export interface FunnelFilter {
  steps: string[];
  from: Date;
  to: Date;
  /** Seconds. */
  window: number;
  breakdown?: string;
}

export interface FunnelRow {
  value: string | null;
  level: number;
  persons: number;
}

/**
 * Persons by the furthest step they reached (and by breakdown value), in one pass per step over
 * the steps' events of the range, each person's in time order. The pass for
 * step k keeps, at every event, the latest start (step-1 time) of a chain that has reached step
 * k: a step-k event at t extends the latest chain at step k-1 when t is within the window of its
 * start. The latest start is the best one to extend, so this finds each person's furthest step
 * over every choice of events (as ClickHouse's windowFunnel, which PostHog uses). At one instant
 * the higher step is ordered first: a step counts only strictly after the previous one, and an
 * event that is two steps (a name repeated in the steps) is one of them in a chain, not both.
 */
export async function funnelRows(db: PulseDb, f: FunnelFilter): Promise<FunnelRow[]> {
  const steps = sql.join(f.steps.map((name, i) => sql`(${i + 1}::int, ${name}::text)`));
  const value = f.breakdown === undefined ? sql`null::text` : sql`e.properties ->> ${f.breakdown}`;
  const order = sql`window w as (partition by person order by ts, step desc rows unbounded preceding)`;
  let chain = sql`select *, max(case when step = 1 then ts end) over w as r1 from ev ${order}`;
  for (let k = 2; k <= f.steps.length; k++) {
    const prev = sql.ref(`r${k - 1}`);
    chain = sql`select *, max(case when step = ${sql.lit(k)} and ts - ${prev} <= ${f.window}::int * interval '1 second'
      then ${prev} end) over w as ${sql.ref(`r${k}`)} from (${chain}) ${sql.ref(`l${k - 1}`)} ${order}`;
  }
  const level = sql.join(
    f.steps.map(
      (_, i) =>
        sql`when max(${sql.ref(`r${f.steps.length - i}`)}) is not null then ${sql.lit(f.steps.length - i)}`,
    ),
    sql` `,
  );
  const result = await sql<FunnelRow>`
    with ev as (
      select ${PERSON} as person, e.timestamp as ts, s.step, ${value} as value
      from ${EVENTS} e join (values ${steps}) as s(step, name) on s.name = e.name ${JOIN_PERSONS}
      where e.name in (${sql.join(f.steps)}) and e.user_id is not null
        and e.timestamp >= ${f.from} and e.timestamp <= ${f.to}
    ), reached as (
      select person, case ${level} else 0 end as level,
        (array_agg(value order by ts) filter (where step = 1))[1] as value
      from (${chain}) chained group by person
    )
    select value, level, count(*)::int as persons from reached where level > 0
    group by value, level`.execute(db);
  return result.rows;
}

export interface RetentionFilter {
  event: string;
  returnEvent: string;
  from: Date;
  to: Date;
  interval: 'day' | 'week';
  zone: string;
}

export interface RetentionRow {
  cohort: string;
  period: number;
  count: number;
}

/**
 * Cohort sizes (period 0) and returning persons per later period. A person's cohort is the
 * period of their first `event` ever (up to `to`), when it falls in the range; they return in a
 * later period when they did `returnEvent` in it, within the range. Periods are counted in local
 * calendar days (weeks: Monday to Sunday) of the zone, so a DST day is still one day.
 */
export async function retentionRows(db: PulseDb, f: RetentionFilter): Promise<RetentionRow[]> {
  const unit = sql.lit(f.interval);
  const days = f.interval === 'week' ? 7 : 1;
  const local = sql`(e.timestamp at time zone ${f.zone})`;
  const result = await sql<RetentionRow>`
    with firsts as (
      select ${PERSON} as person, min(e.timestamp) as first
      from ${EVENTS} e ${JOIN_PERSONS}
      where e.name = ${f.event} and e.user_id is not null and e.timestamp <= ${f.to}
      group by 1
    ), cohort as (
      select person, date_trunc(${unit}, first at time zone ${f.zone})::date as c
      from firsts where first >= ${f.from}
    ), returns as (
      select distinct ${PERSON} as person, date_trunc(${unit}, ${local})::date as r
      from ${EVENTS} e ${JOIN_PERSONS}
      where e.name = ${f.returnEvent} and e.user_id is not null
        and e.timestamp >= ${f.from} and e.timestamp <= ${f.to}
    )
    select to_char(c, 'YYYY-MM-DD') as cohort, 0 as period, count(*)::int as count
    from cohort group by c
    union all
    select to_char(c.c, 'YYYY-MM-DD'), ((r.r - c.c) / ${sql.lit(days)})::int, count(*)::int
    from cohort c join returns r on r.person = c.person and r.r > c.c
    group by 1, 2`.execute(db);
  return result.rows;
}
