import { badRequest } from '@platform/core';
import type { PulseDb } from '../database.js';
import { trendRows } from '../repositories/insights.js';
import { funnelRows, retentionRows, type FunnelRow } from '../repositories/insights-funnels.js';
import {
  MAX_STEPS,
  type Funnels,
  type FunnelsQuery,
  type FunnelStep,
  type Retention,
  type RetentionQuery,
  type Trends,
  type TrendsQuery,
} from '../schemas/insights.js';
import { formatLocal, parseRange, parseZone, periods } from './insights-time.js';

/** Days a range spans when `from` is not given. */
const DEFAULT_DAYS = 30;

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (value: Date | string) => new Date(value).getTime();

/** Counts of an event per period, 0 for periods without any, per breakdown value if asked. */
export async function trends(db: PulseDb, query: TrendsQuery, now?: number): Promise<Trends> {
  const zone = parseZone(query.tz);
  const range = parseRange(query, zone, DEFAULT_DAYS, now);
  const starts = periods(range.from, range.to, query.interval, zone);
  const rows = await trendRows(db, {
    event: query.event,
    from: new Date(range.from),
    to: new Date(range.to),
    interval: query.interval,
    zone: zone.sql,
    unique: query.math === 'unique_users',
    breakdown: query.breakdown,
    breakdownLimit: query.breakdownLimit,
  });
  // A period the database found that the list lacks (a zone whose DST moves by half an hour,
  // as Lord Howe's, shifts its hours' starts; the two sides' zone data may differ) is added.
  for (const row of rows) if (!starts.includes(ms(row.bucket))) starts.push(ms(row.bucket));
  starts.sort((a, b) => a - b);
  const index = new Map(starts.map((start, i) => [start, i]));
  const series = new Map<string | null, Trends['series'][number]>();
  for (const row of rows) {
    let s = series.get(row.value);
    if (!s) {
      s = { breakdown: row.value, counts: starts.map(() => 0), total: row.total };
      series.set(row.value, s);
    }
    s.counts[index.get(ms(row.bucket))!] = row.count;
  }
  if (query.breakdown === undefined && series.size === 0)
    series.set(null, { breakdown: null, counts: starts.map(() => 0), total: 0 });
  return {
    event: query.event,
    interval: query.interval,
    math: query.math,
    tz: zone.name,
    from: iso(range.from),
    to: iso(range.to),
    periods: starts.map((start) => formatLocal(start, zone)),
    series: [...series.values()],
  };
}

/** The step names of `steps=a,b,c`: 400 unless 2 to MAX_STEPS names of 1 to 200 characters. */
export function parseSteps(steps: string): string[] {
  const names = steps.split(',').map((s) => s.trim());
  if (names.length < 2 || names.length > MAX_STEPS)
    throw badRequest(
      `steps must name 2 to ${MAX_STEPS} events, comma-separated (got ${names.length})`,
    );
  const bad = names.findIndex((n) => n.length === 0 || n.length > 200);
  if (bad >= 0) throw badRequest(`steps[${bad}] must be an event name of 1 to 200 characters`);
  return names;
}

const ratio = (count: number, of: number) => (of === 0 ? 0 : count / of);

/** Per step: persons who reached it (their furthest step is it or later), and the conversions. */
function funnelSteps(names: string[], rows: FunnelRow[]): FunnelStep[] {
  const reached = names.map((_, i) => rows.reduce((n, r) => n + (r.level > i ? r.persons : 0), 0));
  return names.map((event, i) => ({
    step: i + 1,
    event,
    count: reached[i],
    conversion: ratio(reached[i], reached[0]),
    stepConversion: i === 0 ? (reached[0] > 0 ? 1 : 0) : ratio(reached[i], reached[i - 1]),
  }));
}

/** Ordered steps within the conversion window: persons and conversion per step. */
export async function funnels(db: PulseDb, query: FunnelsQuery, now?: number): Promise<Funnels> {
  const zone = parseZone(query.tz);
  const names = parseSteps(query.steps);
  const range = parseRange(query, zone, DEFAULT_DAYS, now);
  const rows = await funnelRows(db, {
    steps: names,
    from: new Date(range.from),
    to: new Date(range.to),
    window: query.window,
    breakdown: query.breakdown,
  });
  const byValue = new Map<string | null, FunnelRow[]>();
  for (const row of rows) byValue.set(row.value, [...(byValue.get(row.value) ?? []), row]);
  const breakdowns =
    query.breakdown === undefined
      ? []
      : [...byValue]
          .map(([value, of]) => ({ breakdown: value, steps: funnelSteps(names, of) }))
          .sort(
            (a, b) =>
              b.steps[0].count - a.steps[0].count ||
              (a.breakdown === null
                ? 1
                : b.breakdown === null
                  ? -1
                  : a.breakdown < b.breakdown
                    ? -1
                    : 1),
          )
          .slice(0, query.breakdownLimit);
  return {
    from: iso(range.from),
    to: iso(range.to),
    tz: zone.name,
    window: query.window,
    steps: funnelSteps(names, rows),
    breakdowns,
  };
}

/** Cohorts by first occurrence, and the share of each returning in each later period. */
export async function retention(
  db: PulseDb,
  query: RetentionQuery,
  now?: number,
): Promise<Retention> {
  const zone = parseZone(query.tz);
  const range = parseRange(query, zone, query.interval === 'week' ? 7 * 8 : 14, now);
  const starts = periods(range.from, range.to, query.interval, zone);
  const returnEvent = query.returnEvent ?? query.event;
  const rows = await retentionRows(db, {
    event: query.event,
    returnEvent,
    from: new Date(range.from),
    to: new Date(range.to),
    interval: query.interval,
    zone: zone.sql,
  });
  const counts = new Map(rows.map((r) => [`${r.cohort} ${r.period}`, r.count]));
  return {
    event: query.event,
    returnEvent,
    interval: query.interval,
    tz: zone.name,
    from: iso(range.from),
    to: iso(range.to),
    cohorts: starts.map((start, i) => {
      const label = formatLocal(start, zone);
      const day = label.slice(0, 10);
      const size = counts.get(`${day} 0`) ?? 0;
      return {
        start: label,
        size,
        periods: starts.slice(i).map((_, period) => {
          const count = counts.get(`${day} ${period}`) ?? 0;
          return { count, share: ratio(count, size) };
        }),
      };
    }),
  };
}
