import type { DataOf, Datum, Series } from '@platform/ui';

type Event = DataOf<'pulse.listEvents'>[number];
export const INTERVALS = ['hour', 'day', 'week'] as const;
export type Interval = (typeof INTERVALS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SIZE: Record<Interval, number> = { hour: HOUR, day: DAY, week: 7 * DAY };
/** More buckets than this is not a chart one reads: a wider interval is asked for. */
export const MAX_BUCKETS = 2000;
/** Names drawn as their own series; the others are summed as "other". */
const NAMED = 4;

/** The interval a span reads best in: hours up to two days, days up to four months, else weeks. */
export function autoInterval(span: number): Interval {
  return span <= 2 * DAY ? 'hour' : span <= 120 * DAY ? 'day' : 'week';
}

/** The start of `time`'s bucket, in UTC (weeks start on Monday, as ISO weeks do). */
function bucketStart(time: number, interval: Interval): number {
  if (interval === 'hour') return time - (time % HOUR);
  const day = time - (time % DAY);
  if (interval === 'day') return day;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
}

const label = (start: number, interval: Interval) => {
  const iso = new Date(start).toISOString();
  return interval === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
};

/**
 * Events counted per bucket from the first event's to the last's (empty buckets as 0), one
 * series for each of the most frequent names and "other" for the rest, plus `total`.
 */
export function timeline(events: readonly Event[], chosen: Interval | '') {
  const times = events.map((e) => Date.parse(e.timestamp));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const interval = chosen || autoInterval(events.length ? last - first : 0);
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.slice(0, ranked.length > NAMED + 1 ? NAMED : NAMED + 1).map(([n]) => n);
  const series: Series[] = named.map((name, i) => ({ key: `s${i}`, label: name }));
  if (ranked.length > named.length) series.push({ key: 'other', label: 'other' });
  if (!events.length) return { interval, series, data: [] as Datum[], tooMany: false };

  const start = bucketStart(first, interval);
  const buckets = Math.floor((bucketStart(last, interval) - start) / SIZE[interval]) + 1;
  if (buckets > MAX_BUCKETS) return { interval, series, data: [] as Datum[], tooMany: true };
  const data: Datum[] = Array.from({ length: buckets }, (_, i) => ({
    when: label(start + i * SIZE[interval], interval),
    total: 0,
    ...Object.fromEntries(series.map((s) => [s.key, 0])),
  }));
  events.forEach((e, i) => {
    const row = data[Math.floor((bucketStart(times[i], interval) - start) / SIZE[interval])];
    const index = named.indexOf(e.name);
    const key = index === -1 ? 'other' : `s${index}`;
    row[key] = Number(row[key]) + 1;
    row.total = Number(row.total) + 1;
  });
  return { interval, series, data, tooMany: false };
}
