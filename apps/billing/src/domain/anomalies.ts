import { newId } from '@platform/core';
import { mean, median, medianAbsoluteDeviation } from 'simple-statistics';
import type { BillingConfig } from '../config.js';
import type { AnomalyRow, BillingDb } from '../database.js';
import {
  coveringChannels,
  resolveAnomalies,
  serviceNames,
  upsertAnomaly,
  type NewAnomaly,
} from '../repositories/anomalies.js';
import { claimAnomalyAlert, dbNow } from '../repositories/budgets-alerts.js';
import { dailySpend } from '../repositories/spend.js';
import { formatCents } from './budgets.js';
import { addDays, dayOf, today } from './forecast.js';

// Anomalies (issue 39, item 5): a day whose spend, for one catalog service or one provider, is far
// above its recent days. For a day d, with the W days before it (BILLING_ANOMALY_WINDOW_DAYS, days
// without spend as 0):
//
//   expected = median of the window
//   MAD      = median of |x - expected| over the window
//   score    = 0.6745 × (actual - expected) / MAD          (the modified z-score, Iglewicz and
//                                                          Hoaglin 1993; 0.6745 makes MAD
//                                                          comparable to a standard deviation)
//   when MAD = 0: (actual - expected) / (1.253314 × mean |x - expected|), and when that is 0 too
//   (a window that never varied) the score is null and any rise above the floors below counts
//
// d is an anomaly when score > BILLING_ANOMALY_THRESHOLD (3.5, the authors' advice) and the rise,
// actual - expected, is at least max(BILLING_ANOMALY_MIN_CENTS, BILLING_ANOMALY_MIN_RATIO ×
// |expected|): a window that barely varied has a tiny MAD (13 days at 10000 and one at 10001: MAD
// 0, mean deviation 1/14), which would make a rise of 100 a score of 1117; the relative floor (10 %
// of 10000 = 1000) keeps such a rise ordinary. Only rises are anomalies (a cost that drops is not
// an alarm). A series is judged only once it had spend on BILLING_ANOMALY_MIN_DAYS days of the
// window, so that a new service's first days are not anomalies. Median and MAD ignore the few
// outliers of the window itself, which a mean and standard deviation would chase.
//
// Each run judges the lookback's days again: an open anomaly not found again (its day left the
// lookback, or late spend made it ordinary) becomes `resolved`; one found again is open again.

export type AnomalySettings = BillingConfig['anomalies'];
export type Scope = 'service' | 'provider';

export interface Judgement {
  expected: number;
  actual: number;
  size: number;
  score: number | null;
  mad: number;
}

const cents = (value: number) => Math.round(value);

/** Judges one day of one series (`daily`: YYYY-MM-DD to exact cents); undefined: not an anomaly. */
export function judgeDay(
  daily: ReadonlyMap<string, string>,
  day: Date,
  settings: Pick<AnomalySettings, 'windowDays' | 'minDays' | 'threshold' | 'minCents' | 'minRatio'>,
): Judgement | undefined {
  const window: number[] = [];
  for (let i = 1; i <= settings.windowDays; i++)
    window.push(Number(daily.get(dayOf(addDays(day, -i))) ?? 0));
  if (window.filter((x) => x !== 0).length < settings.minDays) return undefined;
  const actual = Number(daily.get(dayOf(day)) ?? 0);
  const expected = median(window);
  const rise = actual - expected;
  const floor = Math.max(settings.minCents, settings.minRatio * Math.abs(expected));
  if (rise <= 0 || rise < floor) return undefined;
  const mad = medianAbsoluteDeviation(window);
  let score: number | null;
  if (mad > 0) score = (0.6745 * rise) / mad;
  else {
    const meanDeviation = mean(window.map((x) => Math.abs(x - expected)));
    score = meanDeviation > 0 ? rise / (1.253314 * meanDeviation) : null;
  }
  if (score !== null && score <= settings.threshold) return undefined;
  const rounded = { expected: cents(expected), actual: cents(actual) };
  return { ...rounded, size: rounded.actual - rounded.expected, score, mad };
}

/**
 * Checks the last BILLING_ANOMALY_LOOKBACK_DAYS days up to yesterday (UTC) of every catalog service
 * and every provider: two queries of daily spend, then one write per anomaly found (a day found
 * again keeps its id and status, with the new figures), then the open ones not found again
 * resolved. Answers the open anomalies of those days.
 */
export async function detectAnomalies(
  db: BillingDb,
  settings: AnomalySettings,
  currency: string,
  now = new Date(),
): Promise<AnomalyRow[]> {
  const last = addDays(today(now), -1);
  const first = addDays(last, 1 - settings.lookbackDays);
  const from = addDays(first, -settings.windowDays);
  const run = await dbNow(db);
  const found: AnomalyRow[] = [];
  for (const scope of ['service', 'provider'] as const) {
    const series = new Map<string, Map<string, string>>();
    for (const row of await dailySpend(db, { from, to: today(now), currency }, scope)) {
      if (row.key === null) continue;
      if (!series.has(row.key)) series.set(row.key, new Map());
      series.get(row.key)!.set(row.day, row.exact);
    }
    for (const [key, daily] of series)
      for (let day = first; day <= last; day = addDays(day, 1)) {
        const judged = judgeDay(daily, day, settings);
        if (!judged) continue;
        const anomaly: NewAnomaly = { id: newId(12), scope, key, day: dayOf(day), ...judged };
        const { row } = await upsertAnomaly(db, anomaly, run);
        if (row.status === 'open') found.push(row);
      }
  }
  await resolveAnomalies(db, run);
  return found;
}

/** What an anomaly is about, for people: a service's name (else its id), or a provider. */
export const subjectOf = (anomaly: AnomalyRow, names: Map<string, string>) =>
  anomaly.scope === 'service'
    ? `service ${names.get(anomaly.key) ?? anomaly.key}`
    : `provider ${anomaly.key}`;

/** The details of an anomaly's alert and ledger event. */
export function anomalyDetails(anomaly: AnomalyRow, names: Map<string, string>, currency: string) {
  return {
    anomalyId: anomaly.id,
    scope: anomaly.scope,
    service: anomaly.scope === 'service' ? anomaly.key : null,
    serviceName: anomaly.scope === 'service' ? (names.get(anomaly.key) ?? null) : null,
    provider: anomaly.scope === 'provider' ? anomaly.key : null,
    day: anomaly.day,
    expected: Number(anomaly.expected),
    actual: Number(anomaly.actual),
    size: Number(anomaly.size),
    score: anomaly.score,
    currency,
  };
}

/**
 * Claims the alerts of these anomalies: one per anomaly and channel (by id), the channels being
 * those of the budgets that cover its service or provider, and `channel` (BILLING_ANOMALY_CHANNEL
 * resolved to its id). Each is claimed once (its key), whoever detects the anomaly again, and only
 * while the anomaly is open.
 */
export async function claimAnomalyAlerts(
  db: BillingDb,
  anomalies: AnomalyRow[],
  channel: string | undefined,
  currency: string,
) {
  const names = await serviceNames(
    db,
    anomalies.filter((a) => a.scope === 'service').map((a) => a.key),
  );
  let claimed = 0;
  for (const anomaly of anomalies) {
    const channels = new Set(await coveringChannels(db, anomaly.scope, anomaly.key));
    if (channel) channels.add(channel);
    const what = subjectOf(anomaly, names);
    const money = (value: number | string) => formatCents(Number(value), currency);
    const score =
      anomaly.score === null
        ? 'a baseline that never varied'
        : `modified z-score ${anomaly.score.toFixed(1)}`;
    for (const to of channels) {
      const row = await claimAnomalyAlert(db, anomaly.id, to, {
        id: newId(12),
        key: `anomaly:${anomaly.id}:${to}`,
        budget_id: null,
        anomaly_id: anomaly.id,
        period: anomaly.day,
        threshold: null,
        basis: null,
        channel: to,
        subject: `Spend anomaly: ${what} on ${anomaly.day}`,
        text: `Spend anomaly: ${what} spent ${money(anomaly.actual)} on ${anomaly.day}, ${money(anomaly.size)} above the expected ${money(anomaly.expected)} (${score}).`,
        details: anomalyDetails(anomaly, names, currency),
        recorded_at: null,
        delivery_id: null,
        error: null,
        locked_until: null,
        expires_at: null,
        sent_at: null,
      });
      if (row) claimed++;
    }
  }
  return claimed;
}
