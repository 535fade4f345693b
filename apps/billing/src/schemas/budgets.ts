import {
  IsoTimestamp,
  Name,
  Nullable,
  PagedQuery,
  StampsAt,
  stampsAt,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { AlertRow, BudgetRow } from '../database.js';
import { BUDGET_STATUSES } from '../domain/budgets.js';
import { addDays, dayOf, PERIODS, periodOf, today } from '../domain/forecast.js';
import { Currency, Day, Owned, Team } from './items.js';

const Label = (title: string, description: string) =>
  Type.String({ minLength: 1, maxLength: 200, title, description });

/** The spend a budget counts: every condition given must hold; none: all spend. */
export const BudgetFilterSchema = Type.Object(
  {
    owner: Type.Optional(Label('filter.owner', "A catalog owner's name (any case)")),
    service: Type.Optional(Label('filter.service', 'A catalog service id or name (any case)')),
    provider: Type.Optional(
      Label('filter.provider', 'A provider, e.g. aws (stored in lower case)'),
    ),
    tag: Type.Optional(Label('filter.tag', 'A tag the items carry')),
  },
  { additionalProperties: false },
);

export const BudgetInputSchema = Type.Object({
  name: Name('budget name'),
  amount: Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    title: 'amount',
    description: 'Cents per period, in the configured currency',
  }),
  period: Type.Enum([...PERIODS], { title: 'period', description: 'UTC month, quarter or year' }),
  filter: Type.Optional(BudgetFilterSchema),
  thresholds: Type.Array(Type.Integer({ minimum: 1, maximum: 1000, title: 'thresholds' }), {
    minItems: 1,
    maxItems: 10,
    uniqueItems: true,
    default: [80, 100],
    title: 'thresholds',
    description: 'Percentages of amount (1-1000, no repeats); an alert for each, once a period',
  }),
  channel: Type.String({
    minLength: 1,
    maxLength: 100,
    title: 'channel',
    description:
      "A communication channel's id or name, where the alerts go: one the app billing is registered on (an admin's request registers it)",
  }),
  team: Type.Optional(Team),
});
export const BudgetUpdateSchema = UpdateOf(BudgetInputSchema);
export type BudgetInput = Static<typeof BudgetUpdateSchema>;

export const AlertSchema = Type.Object({
  id: Type.String(),
  period: Nullable(Type.String({ description: 'The budget period (or the anomaly day)' })),
  threshold: Nullable(Type.Integer()),
  basis: Nullable(Type.Enum(['actual', 'forecast'], { description: 'What crossed it' })),
  channel: Type.String(),
  status: Type.Enum(['pending', 'sent', 'expired'], {
    description:
      'pending: not accepted by communication yet (see error), tried again after BILLING_ALERT_RETRY_MS, doubling; expired: not sent while current (a budget alert by a day after its period, an anomaly alert while the anomaly was open)',
  }),
  deliveryId: Nullable(Type.String({ description: "communication's delivery (app billing)" })),
  attempts: Type.Integer({ description: 'Sends attempted' }),
  error: Nullable(Type.String({ description: 'Why the last attempt did not send it' })),
  recorded: Type.Boolean({ description: 'Whether the ledger has it' }),
  createdAt: IsoTimestamp,
  sentAt: Nullable(IsoTimestamp),
});

export const toAlert = (row: AlertRow) => ({
  id: row.id,
  period: row.period,
  threshold: row.threshold,
  basis: row.basis,
  channel: row.channel,
  status: row.status,
  deliveryId: row.delivery_id,
  attempts: row.attempts,
  error: row.error,
  recorded: row.recorded_at !== null,
  createdAt: new Date(row.created_at).toISOString(),
  sentAt: row.sent_at && new Date(row.sent_at).toISOString(),
});

const Cents = (description: string) => Type.Integer({ description: `${description} (cents)` });

export const BudgetSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  amount: Cents('Per period'),
  currency: Type.String(),
  period: Type.Enum([...PERIODS]),
  filter: Type.Object({
    owner: Nullable(Type.String()),
    service: Nullable(Type.String()),
    provider: Nullable(Type.String()),
    tag: Nullable(Type.String()),
  }),
  thresholds: Type.Array(Type.Integer()),
  channel: Type.String({ description: "The channel's id" }),
  channelName: Nullable(Type.String()),
  currentPeriod: Type.Object(
    {
      key: Type.String({ description: '2026-03, 2026-Q1 or 2026' }),
      from: Type.String(),
      to: Type.String(),
    },
    { description: 'The period of the figures (this one, before the first evaluation)' },
  ),
  spent: Cents('This period so far'),
  forecast: Cents('At the end of this period (spent + run rate × days left)'),
  runRate: Cents('A day: the median daily spend of the forecast window'),
  status: Type.Enum([...BUDGET_STATUSES], {
    description:
      'over: spent reached 100 % of amount (whatever the thresholds); warning: not over, and spent reached a threshold (under 100, then) or forecast reached any threshold; else ok',
  }),
  evaluatedAt: Nullable(IsoTimestamp, {
    description:
      'When the figures were computed (the periodic job, a change of the budget, POST /budgets/evaluate, items changed); null: not yet (figures 0)',
  }),
  alerts: Type.Array(AlertSchema, {
    description: "This period's alerts, and older ones still pending",
  }),
  ...Owned,
  ...StampsAt,
});
export type Budget = Static<typeof BudgetSchema>;

export function toBudget(row: BudgetRow, alerts: AlertRow[]): Budget {
  const current = periodOf(row.period, today());
  const forecast = row.figures ?? {
    period: current.key,
    from: dayOf(current.start),
    to: dayOf(addDays(current.end, -1)),
    spent: 0,
    forecast: 0,
    runRate: 0,
  };
  return {
    id: row.id,
    name: row.name,
    amount: Number(row.amount),
    currency: row.currency,
    period: row.period,
    filter: {
      owner: row.filter_owner,
      service: row.filter_service,
      provider: row.filter_provider,
      tag: row.filter_tag,
    },
    thresholds: row.thresholds,
    channel: row.channel,
    channelName: row.channel_name,
    currentPeriod: { key: forecast.period, from: forecast.from, to: forecast.to },
    spent: forecast.spent,
    forecast: forecast.forecast,
    runRate: forecast.runRate,
    status: row.status,
    evaluatedAt: row.evaluated_at && new Date(row.evaluated_at).toISOString(),
    alerts: alerts
      .filter((a) => a.budget_id === row.id)
      .filter((a) => a.period === forecast.period || a.status === 'pending')
      .map(toAlert),
    createdBy: row.created_by,
    team: row.team,
    ...stampsAt(row.created_at, row.updated_at),
  };
}

export const BudgetListQuery = PagedQuery({
  service: Type.Optional(
    Type.String({ description: 'Budgets whose filter names this catalog service (id or name)' }),
  ),
  owner: Type.Optional(Type.String({ description: 'Budgets whose filter names this owner' })),
});

export const EvaluationSchema = Type.Object({
  budgets: Type.Integer({ description: 'Budgets evaluated' }),
  claimed: Type.Integer({ description: 'New alerts (thresholds crossed for the first time)' }),
  sent: Type.Integer({ description: 'Alerts communication accepted in this run' }),
  pending: Type.Integer({ description: 'Alerts that could not be sent in this run' }),
  recorded: Type.Integer({ description: 'Alerts recorded in the ledger in this run' }),
  expired: Type.Integer({ description: 'Pending alerts expired in this run (no longer current)' }),
});

export const ForecastQuery = Type.Object({
  service: Type.Optional(Type.String({ description: 'A catalog service id or name' })),
  owner: Type.Optional(Type.String({ description: "A catalog owner's name" })),
  provider: Type.Optional(Type.String()),
  asOf: Type.Optional(Day('The day of the forecast, its spend included (default: today, UTC)')),
  currency: Type.Optional(Currency('The currency counted; the configured one by default')),
});

export const ForecastSchema = Type.Object({
  period: Type.String({ description: 'The month, YYYY-MM' }),
  from: Type.String({ description: "The month's first day" }),
  to: Type.String({ description: "The month's last day" }),
  asOf: Type.String(),
  spent: Cents('From the first day through asOf'),
  runRate: Cents('A day: the median daily spend of the windowDays ending with asOf'),
  windowDays: Type.Integer(),
  daysRemaining: Type.Integer({ description: 'Days of the month after asOf' }),
  forecast: Cents('spent + runRate × daysRemaining, at the end of the month'),
  currency: Type.String(),
});
