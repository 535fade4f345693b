import { newId } from '@platform/core';
import type { AlertRow, BillingDb, BudgetRow } from '../database.js';
import { allBudgets, storeFigures, type Evaluated } from '../repositories/budgets.js';
import { claimBudgetAlert, claimedKeys, type NewAlert } from '../repositories/budgets-alerts.js';
import {
  addDays,
  dailySeries,
  forecastOf,
  parseDay,
  today,
  type Forecast,
  type ForecastFilter,
} from './forecast.js';

// Budgets (issue 39, item 4): a budget's spend in its current period (UTC month, quarter or year),
// its forecast for the period's end (domain/forecast.ts), its status, and the alerts of the
// thresholds crossed. An evaluation stores the figures on the budget's row (what reading budgets
// shows). An alert is claimed once per budget, period, threshold and basis by inserting its row
// (unique key): two evaluations at once, in one instance or two, claim it once, and a restart
// finds it claimed. Sending it is the outbox's work (domain/budgets-outbox.ts).

export const BUDGET_STATUSES = ['ok', 'warning', 'over'] as const;
export type BudgetStatus = (typeof BUDGET_STATUSES)[number];

/** The spend a budget counts. */
export const filterOf = (budget: BudgetRow): ForecastFilter => ({
  owner: budget.filter_owner ?? undefined,
  service: budget.filter_service ?? undefined,
  provider: budget.filter_provider ?? undefined,
  tag: budget.filter_tag ?? undefined,
  currency: budget.currency,
});

/** Whether `value` cents is at least `percent` % of `amount` cents (exact, in integers). */
export const reaches = (value: number, amount: number, percent: number) =>
  BigInt(Math.round(value)) * 100n >= BigInt(Math.round(amount)) * BigInt(percent);

/**
 * `over` when the spend so far reached 100 % of the amount (whatever the thresholds); else
 * `warning` when the spend reached a threshold (one under 100, then) or the forecast reached any
 * threshold; else `ok`.
 */
export function statusOf(budget: BudgetRow, forecast: Forecast): BudgetStatus {
  const amount = Number(budget.amount);
  if (reaches(forecast.spent, amount, 100)) return 'over';
  const crossed = budget.thresholds.some(
    (t) => reaches(forecast.spent, amount, t) || reaches(forecast.forecast, amount, t),
  );
  return crossed ? 'warning' : 'ok';
}

/** `1,234.56 USD` */
export function formatCents(value: number, currency: string) {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(Math.round(value));
  const units = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${units}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

/** The alert of a threshold crossed, as it is claimed, sent and recorded. */
export function budgetAlert(
  budget: BudgetRow,
  forecast: Forecast,
  threshold: number,
  basis: 'actual' | 'forecast',
): NewAlert {
  const amount = Number(budget.amount);
  const money = (value: number) => formatCents(value, budget.currency);
  const of = `${threshold}% of ${money(amount)} for ${forecast.period}`;
  const text =
    basis === 'actual'
      ? `Budget ${budget.name} has reached ${of}: ${money(forecast.spent)} spent, ${money(forecast.forecast)} forecast by ${forecast.to}.`
      : `Budget ${budget.name} is forecast to reach ${of}: ${money(forecast.forecast)} by ${forecast.to}, ${money(forecast.spent)} spent so far.`;
  const id = newId(12);
  return {
    id,
    key: `budget:${budget.id}:${forecast.period}:${threshold}:${basis}`,
    budget_id: budget.id,
    anomaly_id: null,
    period: forecast.period,
    threshold,
    basis,
    channel: budget.channel,
    subject: `Budget ${budget.name}: ${threshold}% ${basis === 'actual' ? 'reached' : 'forecast'}`,
    text,
    details: {
      alertId: id,
      budgetId: budget.id,
      budget: budget.name,
      period: forecast.period,
      threshold,
      basis,
      amount,
      spent: forecast.spent,
      forecast: forecast.forecast,
      currency: budget.currency,
    },
    recorded_at: null,
    delivery_id: null,
    error: null,
    locked_until: null,
    // Not sent by a day after the period: expired (domain/budgets-outbox.ts).
    expires_at: addDays(parseDay(forecast.to), 2),
    sent_at: null,
  };
}

/**
 * The alerts a budget's figures call for: per threshold, `actual` once the spend reached it, else
 * `forecast` once the forecast did. Each basis has its own claim, so a forecast alert sent early
 * does not keep back the `actual` one when the spend gets there.
 */
export function alertsOf(budget: BudgetRow, forecast: Forecast): NewAlert[] {
  const amount = Number(budget.amount);
  return budget.thresholds.flatMap((threshold) =>
    reaches(forecast.spent, amount, threshold)
      ? [budgetAlert(budget, forecast, threshold, 'actual')]
      : reaches(forecast.forecast, amount, threshold)
        ? [budgetAlert(budget, forecast, threshold, 'forecast')]
        : [],
  );
}

/** Budgets that count the same spend: one spend query for all of them. */
const filterKey = (b: BudgetRow) =>
  JSON.stringify([
    b.filter_owner?.toLowerCase() ?? null,
    b.filter_service?.toLowerCase() ?? null,
    b.filter_provider?.toLowerCase() ?? null,
    b.filter_tag,
    b.currency,
  ]);

/**
 * Evaluates budgets (all of them, or `only` those): one spend query per distinct filter (budgets
 * with the same filter share it, whatever their periods), their figures stored on their rows, then
 * a claim for each alert due that is not claimed yet (one query per 1,000 keys, then one insert
 * per new alert, skipped when its budget was deleted meanwhile). Answers the alerts it claimed.
 */
export async function evaluateBudgets(
  db: BillingDb,
  windowDays: number,
  now = new Date(),
  only?: BudgetRow[],
): Promise<{ budgets: number; claimed: AlertRow[] }> {
  const budgets = only ?? (await allBudgets(db));
  const asOf = today(now);
  const groups = new Map<string, BudgetRow[]>();
  for (const budget of budgets) {
    const key = filterKey(budget);
    groups.set(key, [...(groups.get(key) ?? []), budget]);
  }
  const evaluated: Evaluated[] = [];
  const candidates: NewAlert[] = [];
  for (const group of groups.values()) {
    const periods = [...new Set(group.map((b) => b.period))];
    const daily = await dailySeries(db, filterOf(group[0]), periods, asOf, windowDays);
    for (const budget of group) {
      const forecast = forecastOf(daily, budget.period, asOf, windowDays);
      evaluated.push({ id: budget.id, figures: forecast, status: statusOf(budget, forecast) });
      candidates.push(...alertsOf(budget, forecast));
    }
  }
  await storeFigures(db, evaluated, now);
  const taken = await claimedKeys(
    db,
    candidates.map((c) => c.key),
  );
  const claimed: AlertRow[] = [];
  for (const candidate of candidates) {
    if (taken.has(candidate.key)) continue;
    const row = await claimBudgetAlert(db, candidate.budget_id!, candidate);
    if (row) claimed.push(row);
  }
  return { budgets: budgets.length, claimed };
}
