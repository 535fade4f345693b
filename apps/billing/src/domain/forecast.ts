import Big from 'big.js';
import { median } from 'simple-statistics';
import type { BillingDb } from '../database.js';
import { dailySpend, type SpendFilter } from '../repositories/spend.js';

// Forecasts (issue 39, item 5): what a filter's spend will be at the end of a period, from what it
// is so far and a robust daily run rate. Periods are UTC months, quarters and years.
//
//   forecast = spent (period start through the day of the forecast, that day included)
//            + run rate × the days left after that day
//   run rate = the median of the daily spend of the W days ending with that day
//              (W = BILLING_FORECAST_WINDOW_DAYS; a day without spend counts as 0)
//
// The median is what makes it robust: one large charge (a yearly licence, a runaway job that was
// stopped) moves the spend so far, not the rate at which the rest of the period is projected. The
// exact sums (sub-cent digits) are added and each figure rounded once, half away from zero.

export const PERIODS = ['month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a date, in UTC. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** Midnight UTC of a YYYY-MM-DD day. */
export const parseDay = (day: string) => new Date(`${day}T00:00:00.000Z`);
export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
/** Midnight UTC of today. */
export const today = (now = new Date()) => parseDay(dayOf(now));

/** The period holding `day`: its key (`2026-03`, `2026-Q1`, `2026`) and its days [start, end). */
export function periodOf(period: Period, day: Date) {
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  const at = (m: number) => new Date(Date.UTC(year, m, 1));
  if (period === 'month')
    return { key: `${year}-${pad(month + 1)}`, start: at(month), end: at(month + 1) };
  if (period === 'quarter') {
    const first = month - (month % 3);
    return { key: `${year}-Q${first / 3 + 1}`, start: at(first), end: at(first + 3) };
  }
  return { key: `${year}`, start: at(0), end: at(12) };
}

export interface Forecast {
  /** The period's key (`2026-03`) and its first and last days (YYYY-MM-DD). */
  period: string;
  from: string;
  to: string;
  /** The day the forecast is made on (its spend included). */
  asOf: string;
  /** Cents from the period's start through `asOf`. */
  spent: number;
  /** Cents a day: the median of the window's daily spend. */
  runRate: number;
  windowDays: number;
  /** Days of the period after `asOf`. */
  daysRemaining: number;
  /** Cents at the period's end. */
  forecast: number;
}

/** Rounded once, half away from zero, to whole cents. */
const cents = (exact: Big) => Number(exact.round(0, Big.roundHalfUp));

/**
 * The forecast of `period` (the one holding `asOf`) from daily spend: `daily` maps YYYY-MM-DD to the
 * exact cents of that day (missing days: none), covering at least the period's start and the
 * window's days through `asOf`.
 */
export function forecastOf(
  daily: ReadonlyMap<string, string>,
  period: Period,
  asOf: Date,
  windowDays: number,
): Forecast {
  const { key, start, end } = periodOf(period, asOf);
  let spent = new Big(0);
  for (let day = start; day <= asOf; day = addDays(day, 1))
    spent = spent.plus(daily.get(dayOf(day)) ?? 0);
  const window: number[] = [];
  for (let i = 0; i < windowDays; i++)
    window.push(Number(daily.get(dayOf(addDays(asOf, -i))) ?? 0));
  const rate = new Big(median(window));
  const daysRemaining = Math.round((end.getTime() - addDays(asOf, 1).getTime()) / DAY_MS);
  return {
    period: key,
    from: dayOf(start),
    to: dayOf(addDays(end, -1)),
    asOf: dayOf(asOf),
    spent: cents(spent),
    runRate: cents(rate),
    windowDays,
    daysRemaining,
    forecast: cents(spent.plus(rate.times(daysRemaining))),
  };
}

/** The spend filter of a forecast, without its dates. */
export type ForecastFilter = Omit<SpendFilter, 'from' | 'to'>;

/**
 * A filter's exact spend per day (YYYY-MM-DD), one query: from the earliest start of these
 * periods (those holding `asOf`) and of the window, through `asOf`. What forecastOf reads, for
 * any of those periods.
 */
export async function dailySeries(
  db: BillingDb,
  filter: ForecastFilter,
  periods: readonly Period[],
  asOf: Date,
  windowDays: number,
): Promise<Map<string, string>> {
  let from = addDays(asOf, 1 - windowDays);
  for (const period of periods) {
    const { start } = periodOf(period, asOf);
    if (start < from) from = start;
  }
  const rows = await dailySpend(db, { ...filter, from, to: addDays(asOf, 1) }, null);
  const daily = new Map<string, string>();
  for (const row of rows) daily.set(row.day, row.exact);
  return daily;
}

/** The forecast of a filter's spend for the period holding `asOf`: one query. */
export async function forecastSpend(
  db: BillingDb,
  filter: ForecastFilter,
  period: Period,
  asOf: Date,
  windowDays: number,
): Promise<Forecast> {
  const daily = await dailySeries(db, filter, [period], asOf, windowDays);
  return forecastOf(daily, period, asOf, windowDays);
}
