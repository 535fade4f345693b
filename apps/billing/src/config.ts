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
});

export const BILLING_VARIABLES = VARIABLES.variables;

export function billingConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    currency: values.BILLING_CURRENCY.toUpperCase(),
    openaiUrl: values.BILLING_OPENAI_URL,
    anthropicUrl: values.BILLING_ANTHROPIC_URL,
    focusMaxBytes: values.BILLING_FOCUS_MAX_BYTES,
  };
}

export type BillingConfig = ReturnType<typeof billingConfig>;
