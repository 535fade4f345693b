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
  STAGE_WORKFLOW_SYNC_MS: Var.int({
    default: 5_000,
    min: 0,
    max: 120_000,
    unit: 'ms',
    description:
      'How long `POST /api/v1/run/...` waits for a workflow run to end and answer its result; a run still going (or asleep, or waiting) after it is answered `202` with its id',
  }),
  STAGE_WORKFLOW_WAKE_MS: Var.int({
    default: 15_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      'How often one instance looks for workflow runs whose sleep or wait is over and whose wake-up job was lost; `0` turns the sweep off (wake-up jobs still run)',
  }),
  STAGE_WORKFLOW_SCHEDULE_TICK_MS: Var.int({
    default: 10_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      "How often one instance looks for due `schedule` triggers of the apps' workflows (a tick fires once across instances, at most this late); `0` turns schedule triggers off",
  }),
  STAGE_WORKFLOW_EVENT_POLL_MS: Var.int({
    default: 2_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      "How often one instance reads the platform events (the ledger, after a cursor) that `event` triggers of the apps' workflows listen to, starting a run per matching workflow and event (once across instances); `0` turns event triggers off",
  }),
  STAGE_WORKFLOW_MAX_RUN_STEPS: Var.int({
    default: 10_000,
    min: 10,
    max: 1_000_000,
    description:
      'Steps one workflow run may execute in all (loop iterations and retries included); the run fails beyond it',
  }),
  STAGE_WORKFLOW_MAX_ITEMS: Var.int({
    default: 1_000,
    min: 1,
    max: 100_000,
    description: 'Items a workflow `forEach` may loop over (the step fails beyond it)',
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
    syncMs: values.STAGE_WORKFLOW_SYNC_MS,
    wakeMs: values.STAGE_WORKFLOW_WAKE_MS,
    scheduleTickMs: values.STAGE_WORKFLOW_SCHEDULE_TICK_MS,
    eventPollMs: values.STAGE_WORKFLOW_EVENT_POLL_MS,
    maxRunSteps: values.STAGE_WORKFLOW_MAX_RUN_STEPS,
    maxItems: values.STAGE_WORKFLOW_MAX_ITEMS,
  };
}

export type WorkflowConfig = ReturnType<typeof workflowConfig>;
