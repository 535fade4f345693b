import { envEnum, envInt, envString, envUrl, type Env, type Variable } from '@platform/core';

export const DEFAULT_GOOGLE_SHEETS_URL = 'https://sheets.googleapis.com';

export const WORKFLOW_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_SHEETS_PROVIDER',
    default: 'embedded',
    description:
      "Where sheets.* workflow steps keep spreadsheets: embedded (the sandbox's own database) or google (the Google Sheets API v4, as the signed-in user)",
  },
  {
    name: 'STAGE_GOOGLE_SHEETS_URL',
    default: DEFAULT_GOOGLE_SHEETS_URL,
    description: 'Base URL of the Google Sheets API v4 (with STAGE_SHEETS_PROVIDER=google)',
  },
  {
    name: 'STAGE_GOOGLE_PROVIDER',
    default: 'google',
    description:
      "The identity service's provider (id or name) whose delegated token acts for the caller on Google Sheets",
  },
  {
    name: 'STAGE_GOOGLE_TIMEOUT_MS',
    default: '10000',
    description: 'Time limit of one Google Sheets call, in ms (100-120000)',
  },
];

export function workflowConfig(env: Env) {
  return {
    sheetsProvider: envEnum(env, 'STAGE_SHEETS_PROVIDER', ['embedded', 'google'], 'embedded'),
    googleSheetsUrl: envUrl(env, 'STAGE_GOOGLE_SHEETS_URL') ?? DEFAULT_GOOGLE_SHEETS_URL,
    googleProvider: envString(env, 'STAGE_GOOGLE_PROVIDER', 'google'),
    googleTimeoutMs: envInt(env, 'STAGE_GOOGLE_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
  };
}

export type WorkflowConfig = ReturnType<typeof workflowConfig>;
