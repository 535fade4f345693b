import { declareVariables, Var, type Env } from '@platform/core';

export const DEFAULT_GOOGLE_SHEETS_URL = 'https://sheets.googleapis.com';

const VARIABLES = declareVariables({
  STAGE_SHEETS_PROVIDER: Var.oneOf(['embedded', 'google'], {
    default: 'embedded',
    description:
      "Where workflow spreadsheet steps (`sheets.*`) keep their sheets: `embedded` (in the sandbox's database, works offline) or `google` (the Google Sheets API v4, acting as the signed-in caller)",
  }),
  STAGE_GOOGLE_SHEETS_URL: Var.url({
    default: DEFAULT_GOOGLE_SHEETS_URL,
    description: 'Base URL of the Google Sheets API v4 (with `STAGE_SHEETS_PROVIDER=google`)',
  }),
  STAGE_GOOGLE_PROVIDER: Var.string({
    default: 'google',
    accepts: 'a provider id or name',
    description:
      "The identity service's provider whose delegated token Google Sheets calls use, acting for the caller",
  }),
  STAGE_GOOGLE_TIMEOUT_MS: Var.int({
    default: 10_000,
    min: 100,
    max: 120_000,
    unit: 'ms',
    description: 'Time limit of one Google Sheets call',
  }),
});

export const WORKFLOW_VARIABLES = VARIABLES.variables;

export function workflowConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    sheetsProvider: values.STAGE_SHEETS_PROVIDER,
    googleSheetsUrl: values.STAGE_GOOGLE_SHEETS_URL,
    googleProvider: values.STAGE_GOOGLE_PROVIDER,
    googleTimeoutMs: values.STAGE_GOOGLE_TIMEOUT_MS,
  };
}

export type WorkflowConfig = ReturnType<typeof workflowConfig>;
