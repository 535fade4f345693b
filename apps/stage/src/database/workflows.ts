import type { Generated } from '@platform/db';

/** The tables of the workflows (src/domain/workflows), part of StageDatabase. */
export interface WorkflowTables {
  workflow_runs: WorkflowRunsTable;
  workflow_run_steps: WorkflowRunStepsTable;
  spreadsheets: SpreadsheetsTable;
  spreadsheet_sheets: SpreadsheetSheetsTable;
  spreadsheet_rows: SpreadsheetRowsTable;
}

export type RunStatus = 'running' | 'completed' | 'failed';

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
