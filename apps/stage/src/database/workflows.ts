import type { Generated } from '@platform/db';

/** The tables of the workflows (src/domain/workflows), part of StageDatabase. */
export interface WorkflowTables {
  workflow_runs: WorkflowRunsTable;
  workflow_run_steps: WorkflowRunStepsTable;
  spreadsheets: SpreadsheetsTable;
  spreadsheet_sheets: SpreadsheetSheetsTable;
  spreadsheet_rows: SpreadsheetRowsTable;
  workflow_webhooks: WorkflowWebhooksTable;
  workflow_ticks: WorkflowTicksTable;
  workflow_cursors: WorkflowCursorsTable;
}

/** queued (a job will take it), running, sleeping / waiting (no job: woken at wake_at or by an approval), then completed or failed. */
export const RUN_STATUSES = [
  'queued',
  'running',
  'sleeping',
  'waiting',
  'completed',
  'failed',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** How a run was started. */
export type RunTrigger = 'api' | 'backend' | 'schedule' | 'webhook' | 'event' | 'retry';

/** One run of a workflow; `(app_sid, key_scope, idempotency_key)` is unique when the key is set. */
export interface WorkflowRunsTable {
  id: string;
  app_sid: string;
  workflow: string;
  status: RunStatus;
  input: Record<string, unknown>;
  result: unknown;
  /** The error envelope's code and message of a failed run (INTERRUPTED: repositories/runs.ts). */
  error_code: string | null;
  error: string | null;
  /** Who ran it (describeIdentity). */
  caller: string;
  /** Whose Idempotency-Key it is: `user:<email>`, `key:<name>`, `service:<name>:<email>`, `anonymous`. */
  key_scope: string;
  idempotency_key: string | null;
  /** SHA-256 of the workflow and the input (key order ignored): a reused key must match it. */
  request_hash: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
  /** The workflows file as the run started (or was retried with `current`): what it resumes with. Null: a run from before durable runs. */
  definition: string | null;
  /** The session and the version of /app/platform.workflows.json the definition came from. */
  session_id: string | null;
  file_version: number | null;
  /** Who it acts for, without any session id (what its steps' platform calls carry). */
  identity: unknown;
  trigger: Generated<RunTrigger>;
  /** When a sleeping run wakes, or a waiting one times out. */
  wake_at: Date | null;
  /** The durable job that holds the run while it runs. */
  job_id: string | null;
  retries: Generated<number>;
}

export interface WorkflowRunStepsTable {
  run_id: string;
  /** From 0, as in steps[n]. */
  index: number;
  block: string;
  as: string | null;
  /** The step's fields after templates, tokens never among them; null when resolving failed. */
  input: unknown;
  output: unknown;
  error: string | null;
  duration_ms: number;
  /** When it was recorded: a run `running` with none for long was interrupted. */
  recorded_at: Generated<Date>;
  /** Where it is in the definition: steps[2], steps[3].then[0], steps[4].forEach[7][0]. */
  path: string;
  /** running (an attempt under way), completed, failed, or waiting (sleep, waitFor). */
  status: Generated<StepStatus>;
  /** Attempts made so far; the one under way included. */
  attempts: Generated<number>;
  started_at: Generated<Date>;
  /** The whole output when `output` keeps only part of it (what a resumed run reads). */
  value: unknown;
}

export type StepStatus = 'running' | 'completed' | 'failed' | 'waiting';

/** The signed URL of a workflow's webhook trigger: its token (the URL) and sealed secret. */
export interface WorkflowWebhooksTable {
  app_sid: string;
  workflow: string;
  token: string;
  secret: string;
  created_at: Generated<Date>;
}

/** One firing of a schedule trigger: inserted once, whichever instance gets there first. */
export interface WorkflowTicksTable {
  app_sid: string;
  workflow: string;
  /** Its index in the workflow's triggers. */
  trigger: number;
  tick_at: Date;
  run_id: string | null;
}

/** Where a reader of platform events got to: the `seq` of the last ledger event read, as text. */
export interface WorkflowCursorsTable {
  name: string;
  cursor: string;
  updated_at: Generated<Date>;
}

/** A spreadsheet of the embedded provider, owned by one app. */
export interface SpreadsheetsTable {
  id: string;
  app_sid: string;
  title: string;
  created_at: Generated<Date>;
}

export interface SpreadsheetSheetsTable {
  spreadsheet_id: string;
  sheet_id: number;
  title: string;
  index: number;
}

/** One row of a sheet: its cells from column A, as given (RAW). */
export interface SpreadsheetRowsTable {
  spreadsheet_id: string;
  sheet_id: number;
  /** From 0 (row 1 of A1 notation). */
  row: number;
  cells: unknown[];
}
