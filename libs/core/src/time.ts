import { badRequest } from './errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses a `from`/`to` filter value. A bare date means the start of that day (UTC) for `from`
 * and the end of that day for `to`, so `to=2026-01-31` includes the whole of the 31st.
 */
export function parseInstant(value: string, field: string, bound: 'from' | 'to'): Date {
  const dateOnly = DATE_ONLY.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime()) || (dateOnly && date.toISOString().slice(0, 10) !== value)) {
    throw badRequest(`${field} is not a valid date or timestamp: ${value}`);
  }
  if (dateOnly && bound === 'to') {
    date.setUTCDate(date.getUTCDate() + 1);
    date.setUTCMilliseconds(-1);
  }
  return date;
}

/** Parses optional from/to filters and checks that the range is not inverted. */
export function parseRange(query: { from?: string; to?: string }): { from?: Date; to?: Date } {
  const from = query.from === undefined ? undefined : parseInstant(query.from, 'from', 'from');
  const to = query.to === undefined ? undefined : parseInstant(query.to, 'to', 'to');
  if (from && to && from > to) throw badRequest('from must not be after to');
  return { from, to };
}
