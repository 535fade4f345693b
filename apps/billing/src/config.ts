import { ConfigError, envInt, envString, envUrl, type Env, type Variable } from '@platform/core';

export const BILLING_VARIABLES: readonly Variable[] = [
  {
    name: 'BILLING_CURRENCY',
    default: 'USD',
    description: 'ISO 4217 code of items sent without a currency, and of reports by default',
  },
  {
    name: 'BILLING_OPENAI_URL',
    default: 'https://api.openai.com',
    description: "Base URL of OpenAI's organization costs API (sync adapter openai)",
  },
  {
    name: 'BILLING_ANTHROPIC_URL',
    default: 'https://api.anthropic.com',
    description: "Base URL of Anthropic's cost report API (sync adapter anthropic)",
  },
  {
    name: 'BILLING_FOCUS_MAX_BYTES',
    default: String(2 ** 30),
    description: 'Largest FOCUS CSV uploaded to POST /sync/focus, in bytes (413 beyond it)',
  },
];

export function billingConfig(env: Env) {
  const currency = envString(env, 'BILLING_CURRENCY', 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new ConfigError(
      'BILLING_CURRENCY',
      `must be a 3-letter ISO 4217 code, got "${currency}"`,
    );
  return {
    currency,
    openaiUrl: envUrl(env, 'BILLING_OPENAI_URL') ?? 'https://api.openai.com',
    anthropicUrl: envUrl(env, 'BILLING_ANTHROPIC_URL') ?? 'https://api.anthropic.com',
    focusMaxBytes: envInt(env, 'BILLING_FOCUS_MAX_BYTES', 2 ** 30, { min: 1 }),
  };
}

export type BillingConfig = ReturnType<typeof billingConfig>;
