import { declareVariables, Var, type Env } from '@platform/core';

const VARIABLES = declareVariables({
  BILLING_CURRENCY: Var.string({
    default: 'USD',
    accepts: 'an ISO 4217 code',
    check: (value) =>
      /^[A-Z]{3}$/.test(value.toUpperCase())
        ? undefined
        : `must be a 3-letter ISO 4217 code, got "${value.toUpperCase()}"`,
    description: 'Currency of items sent without one, and of reports by default',
  }),
  BILLING_OPENAI_URL: Var.url({
    default: 'https://api.openai.com',
    description: "Base URL of OpenAI's organization costs API (sync adapter `openai`)",
  }),
  BILLING_ANTHROPIC_URL: Var.url({
    default: 'https://api.anthropic.com',
    description: "Base URL of Anthropic's cost report API (sync adapter `anthropic`)",
  }),
  BILLING_FOCUS_MAX_BYTES: Var.int({
    default: 2 ** 30,
    min: 1,
    unit: 'bytes',
    description:
      'Largest FOCUS CSV uploaded to `POST /api/v1/billing/sync/focus` (413 beyond it). A file streams in at about 2.5 MB/s, so within the default `REQUEST_TIMEOUT_MS` up to about 700 MB; raise that for larger ones',
  }),
  BILLING_CATALOG_REFRESH_MS: Var.int({
    default: 300_000,
    min: 0,
    max: 24 * 3_600_000,
    unit: 'ms',
    description:
      "How often billing reads the catalog's services again (a periodic durable job) and re-resolves the items of those that changed; also when an owner rule or allocation names a service its snapshot lacks. When the catalog is off or unreachable the last snapshot is kept (`GET /api/v1/billing/catalog-snapshot`). `0` turns the job off",
  }),
  BILLING_BUDGET_INTERVAL_MS: Var.int({
    default: 300_000,
    min: 0,
    max: 24 * 3_600_000,
    unit: 'ms',
    description:
      'How often budgets are evaluated and their pending alerts sent again (a periodic durable job: one instance at a time, its schedule kept in the database); also after items change through the API of an instance (2 s after, at most once a minute per instance). `0`: on request only (`POST /api/v1/billing/budgets/evaluate`; a budget created or changed is evaluated at once either way)',
  }),
  BILLING_ALERT_RETRY_MS: Var.int({
    default: 60_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      'An alert that could not be sent (or recorded in the ledger) is tried again after this long, doubling with each failure in a row, at most 6 h apart; runs in between pass it by',
  }),
  BILLING_FORECAST_WINDOW_DAYS: Var.int({
    default: 7,
    min: 1,
    max: 90,
    description:
      'Forecasts: the daily run rate is the median daily spend of this many days, ending with the day of the forecast (days without spend count as 0)',
  }),
  BILLING_ANOMALY_INTERVAL_MS: Var.int({
    default: 3_600_000,
    min: 0,
    max: 24 * 3_600_000,
    unit: 'ms',
    description:
      'How often daily spend is checked for anomalies (a periodic durable job, as budgets); `0` turns detection off',
  }),
  BILLING_ANOMALY_WINDOW_DAYS: Var.int({
    default: 14,
    min: 3,
    max: 90,
    description:
      'Anomalies: a day is compared with the median and MAD of this many days before it (per catalog service and per provider; days without spend count as 0)',
  }),
  BILLING_ANOMALY_MIN_DAYS: Var.int({
    default: 7,
    min: 1,
    max: 'BILLING_ANOMALY_WINDOW_DAYS',
    description:
      'Anomalies: a service or provider is judged only once it had spend on at least this many days of the window (new ones are not anomalies)',
  }),
  BILLING_ANOMALY_LOOKBACK_DAYS: Var.int({
    default: 3,
    min: 1,
    max: 31,
    description:
      'Anomalies: each run checks this many days up to yesterday (UTC), so that spend imported late is judged too',
  }),
  BILLING_ANOMALY_THRESHOLD: Var.string({
    default: '3.5',
    accepts: 'a number above 0',
    check: (value) =>
      /^\d+(\.\d+)?$/.test(value) && Number(value) > 0
        ? undefined
        : `must be a number above 0, got "${value}"`,
    description:
      'Anomalies: a day is one when its modified z-score, 0.6745 × (spend − median) / MAD, is above this (Iglewicz and Hoaglin)',
  }),
  BILLING_ANOMALY_MIN_CENTS: Var.int({
    default: 100,
    min: 0,
    description:
      'Anomalies: a day is one only when its spend is at least this many cents above the median',
  }),
  BILLING_ANOMALY_MIN_RATIO: Var.string({
    default: '0.1',
    accepts: 'a number from 0 to 100',
    check: (value) =>
      /^\d+(\.\d+)?$/.test(value) && Number(value) <= 100
        ? undefined
        : `must be a number from 0 to 100, got "${value}"`,
    description:
      'Anomalies: a day is one only when its spend is above the median by at least this fraction of the median too (0.1: 10 %), so that a window that barely varied does not make a small rise an anomaly',
  }),
  BILLING_ANOMALY_CHANNEL: Var.string({
    accepts: "a communication channel's id or name",
    description:
      'Where every anomaly is sent besides the channels of the budgets covering its service or provider; unset: only those. Resolved to its id once per instance (unknown: a warning in the log, and skipped); billing registers itself on it',
  }),
});

export const BILLING_VARIABLES = VARIABLES.variables;

export function billingConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    currency: values.BILLING_CURRENCY.toUpperCase(),
    openaiUrl: values.BILLING_OPENAI_URL,
    anthropicUrl: values.BILLING_ANTHROPIC_URL,
    focusMaxBytes: values.BILLING_FOCUS_MAX_BYTES,
    catalogRefreshMs: values.BILLING_CATALOG_REFRESH_MS,
    budgets: {
      intervalMs: values.BILLING_BUDGET_INTERVAL_MS,
      forecastWindowDays: values.BILLING_FORECAST_WINDOW_DAYS,
      retryMs: values.BILLING_ALERT_RETRY_MS,
    },
    anomalies: {
      intervalMs: values.BILLING_ANOMALY_INTERVAL_MS,
      windowDays: values.BILLING_ANOMALY_WINDOW_DAYS,
      minDays: values.BILLING_ANOMALY_MIN_DAYS,
      lookbackDays: values.BILLING_ANOMALY_LOOKBACK_DAYS,
      threshold: Number(values.BILLING_ANOMALY_THRESHOLD),
      minCents: values.BILLING_ANOMALY_MIN_CENTS,
      minRatio: Number(values.BILLING_ANOMALY_MIN_RATIO),
      channel: values.BILLING_ANOMALY_CHANNEL,
    },
  };
}

export type BillingConfig = ReturnType<typeof billingConfig>;
