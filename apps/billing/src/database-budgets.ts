import type { Generated, Selectable } from '@platform/db';

// The tables of billing's budgets, anomalies and their alerts (issue 39), part of BillingDatabase.

/** A budget (issue 39): `amount` cents per `period` of the spend its filter_* columns match. */
export interface BudgetsTable {
  id: string;
  name: string;
  amount: number;
  currency: string;
  period: 'month' | 'quarter' | 'year';
  filter_owner: string | null;
  filter_service: string | null;
  filter_provider: string | null;
  filter_tag: string | null;
  /** Percentages of `amount`, ascending. */
  thresholds: number[];
  /** The communication channel's id, and its name when it was checked. */
  channel: string;
  channel_name: string | null;
  created_by: string | null;
  team: string | null;
  /** The last evaluation's figures (domain/forecast.ts Forecast), status and time; null: none yet. */
  figures: BudgetFigures | null;
  status: Generated<'ok' | 'warning' | 'over'>;
  evaluated_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A budget's figures as its last evaluation stored them (cents; days YYYY-MM-DD). */
export interface BudgetFigures {
  period: string;
  from: string;
  to: string;
  asOf: string;
  spent: number;
  runRate: number;
  windowDays: number;
  daysRemaining: number;
  forecast: number;
}

/** A day's spend of a catalog service or provider (`scope`, `key`) far from its recent days. */
export interface AnomaliesTable {
  id: string;
  scope: 'service' | 'provider';
  key: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Cents (bigint: text from pg). */
  expected: number;
  actual: number;
  size: number;
  /** The modified z-score; null when the baseline did not vary at all. */
  score: number | null;
  mad: number;
  /** open; dismissed (by a person); resolved (outside the lookback, or found normal again). */
  status: Generated<'open' | 'dismissed' | 'resolved'>;
  reason: string | null;
  dismissed_by: string | null;
  dismissed_at: Date | null;
  resolved_at: Generated<Date | null>;
  /** The start of the last detection run that found it (an open one not found again: resolved). */
  judged_at: Generated<Date | null>;
  /** When billing.anomaly.alert reached the ledger, and when an attempt to record it began. */
  recorded_at: Date | null;
  record_started_at: Generated<Date | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One message to send through communication (the outbox), claimed once by its unique `key`. */
export interface AlertsTable {
  id: string;
  key: string;
  budget_id: string | null;
  anomaly_id: string | null;
  period: string | null;
  threshold: number | null;
  basis: 'actual' | 'forecast' | null;
  /** A communication channel id. */
  channel: string;
  subject: string;
  text: string;
  /** The ledger event's details (and the message's metadata). */
  details: Record<string, unknown>;
  /** pending; sent; expired (not sent while it was current: see domain/budgets-outbox.ts). */
  status: Generated<'pending' | 'sent' | 'expired'>;
  delivery_id: string | null;
  /** Sends attempted; consecutive failures (of the send or the record: the retry's backoff). */
  attempts: Generated<number>;
  failures: Generated<number>;
  /** Why the last attempt did not send it. */
  error: string | null;
  /** When billing.budget.alert reached the ledger (anomaly rows: the anomaly's row records it). */
  recorded_at: Date | null;
  /** When an attempt to record it began (set: a retry asks the ledger first). */
  record_started_at: Generated<Date | null>;
  /** An instance working on it (holding `lease`) holds it until then; after a failure, the retry's time. */
  locked_until: Date | null;
  lease: Generated<string | null>;
  /** Not sent by then: expired (a budget alert: a day after its period ends). */
  expires_at: Date | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
}

export type BudgetRow = Selectable<BudgetsTable>;
export type AnomalyRow = Selectable<AnomaliesTable>;
export type AlertRow = Selectable<AlertsTable>;
