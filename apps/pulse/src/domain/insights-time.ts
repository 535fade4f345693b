import { badRequest } from '@platform/core';

// Time zones and periods of the insights. A zone is an IANA name (`Europe/Berlin`) or a fixed
// offset (`+05:30`). Periods start at local midnight (day), on local Monday (week, ISO), on the
// 1st (month), or at the top of the local hour (hour: a DST change has a 23- or 25-hour day, and
// the repeated hour of autumn is two periods with their own offsets). The SQL side buckets events
// the same way (`bucketSql` in repositories/insights.ts); this side lists every period, so that
// empty ones answer 0.

export type Interval = 'hour' | 'day' | 'week' | 'month';

export interface Zone {
  /** Its canonical IANA name, or the offset as the caller wrote it. */
  name: string;
  /** Fixed offset in minutes east of UTC, when the zone is one. */
  fixed?: number;
  /** What PostgreSQL's AT TIME ZONE takes: the IANA name, or a POSIX string for an offset. */
  sql: string;
}

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** Parses `tz`: 400 naming it when neither an IANA zone nor ±HH:MM. */
export function parseZone(tz: string): Zone {
  if (tz === 'UTC' || tz === 'Z') return { name: 'UTC', fixed: 0, sql: 'UTC' };
  const offset = OFFSET.exec(tz);
  if (offset) {
    const [, sign, hh, mm] = offset;
    const minutes = Number(hh) * 60 + Number(mm);
    if (Number(hh) > 14 || Number(mm) > 59) throw badRequest(`tz is not a valid offset: ${tz}`);
    // Every zone's offset is a whole quarter hour (the rollups count quarter hours).
    if (minutes % 15 !== 0)
      throw badRequest(`tz must be an offset of whole quarter hours, such as +05:45: ${tz}`);
    // POSIX zone strings count west of UTC as positive: `UTC-05:30` is five and a half hours east.
    const posix = `UTC${sign === '+' ? '-' : '+'}${hh}:${mm}`;
    return { name: tz, fixed: sign === '+' ? minutes : -minutes, sql: posix };
  }
  let name: string;
  try {
    // Its canonical spelling (`europe/berlin` is `Europe/Berlin`): one formatter per zone.
    name = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw badRequest(
      `tz is not a known time zone: ${tz} (an IANA name such as Europe/Berlin, or an offset such as +05:30)`,
    );
  }
  return { name, sql: name };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Minutes east of UTC in `zone` at the instant `ms`. */
export function offsetAt(ms: number, zone: Zone): number {
  if (zone.fixed !== undefined) return zone.fixed;
  const parts = Object.fromEntries(
    formatter(zone.name)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant of a local wall time (given as the UTC fields of `wall`), as PostgreSQL reads one:
 * a time repeated by a DST change takes the offset after the change, a skipped one the offset
 * before it (02:30 on the night clocks jump from 02:00 to 03:00 is 03:30).
 */
export function fromLocal(wall: number, zone: Zone): number {
  if (zone.fixed !== undefined) return wall - zone.fixed * 60_000;
  const before = offsetAt(wall - 86_400_000, zone);
  const after = offsetAt(wall + 86_400_000, zone);
  const valid = [after, before]
    .map((offset) => wall - offset * 60_000)
    .filter((ms) => toLocal(ms, zone) === wall);
  return valid.length ? Math.max(...valid) : wall - before * 60_000;
}

/** Local wall time of an instant, as the UTC fields of the answer. */
const toLocal = (ms: number, zone: Zone) => ms + offsetAt(ms, zone) * 60_000;

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `2026-03-29T03:00:00+02:00`: the instant as local time with its offset. */
export function formatLocal(ms: number, zone: Zone): string {
  const offset = offsetAt(ms, zone);
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** The start of the period holding `ms`. */
export function periodStart(ms: number, interval: Interval, zone: Zone): number {
  if (interval === 'hour') {
    const local = toLocal(ms, zone);
    return ms - (local - Math.floor(local / 3_600_000) * 3_600_000);
  }
  const d = new Date(toLocal(ms, zone));
  const wall =
    interval === 'month'
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) -
        (interval === 'week' ? ((d.getUTCDay() + 6) % 7) * 86_400_000 : 0);
  return fromLocal(wall, zone);
}

/** The start of the period after the one starting at `start`. */
export function nextPeriod(start: number, interval: Interval, zone: Zone): number {
  if (interval === 'hour') return start + 3_600_000;
  const d = new Date(toLocal(start, zone));
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (interval === 'month') return fromLocal(Date.UTC(y, m + 1, 1), zone);
  return fromLocal(Date.UTC(y, m, day + (interval === 'week' ? 7 : 1)), zone);
}

export const MAX_PERIODS = 1000;

/** Every period start from the one holding `from` to the one holding `to` (inclusive). */
export function periods(from: number, to: number, interval: Interval, zone: Zone): number[] {
  const list: number[] = [];
  for (let at = periodStart(from, interval, zone); at <= to; at = nextPeriod(at, interval, zone)) {
    if (list.length === MAX_PERIODS)
      throw badRequest(
        `The range holds more than ${MAX_PERIODS} periods of a ${interval}: choose a wider interval or a shorter range`,
      );
    list.push(at);
  }
  return list;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A `from`/`to` value as an instant: a date is that local day in `zone` (its start for `from`,
 * its last millisecond for `to`), a timestamp without an offset is local time, one with an
 * offset is that instant.
 */
export function parseBound(value: string, field: 'from' | 'to', zone: Zone): number {
  const invalid = () => badRequest(`${field} is not a valid date or timestamp: ${value}`);
  if (HAS_OFFSET.test(value) && !DATE_ONLY.test(value)) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw invalid();
    return ms;
  }
  const wall = Date.parse(`${value.replace(' ', 'T')}${DATE_ONLY.test(value) ? 'T00:00:00' : ''}Z`);
  if (Number.isNaN(wall) || new Date(wall).toISOString().slice(0, 10) !== value.slice(0, 10))
    throw invalid();
  if (DATE_ONLY.test(value) && field === 'to') return fromLocal(wall + 86_400_000, zone) - 1;
  return fromLocal(wall, zone);
}

export interface Range {
  from: number;
  /** Inclusive. */
  to: number;
}

/** The range of a query; without `from`, `days` days back from the start of `to`'s day. */
export function parseRange(
  query: { from?: string; to?: string },
  zone: Zone,
  days: number,
  now = Date.now(),
): Range {
  const to = query.to === undefined ? now : parseBound(query.to, 'to', zone);
  const from =
    query.from === undefined
      ? fromLocal(toLocal(periodStart(to, 'day', zone), zone) - (days - 1) * 86_400_000, zone)
      : parseBound(query.from, 'from', zone);
  if (from > to) throw badRequest('from must not be after to');
  return { from, to };
}
