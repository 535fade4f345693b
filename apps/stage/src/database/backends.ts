import type { Generated } from '@platform/db';
import type { LogLevel } from '../domain/backends/protocol.js';

/** The tables of the app backends (src/domain/backends), part of StageDatabase. */
export interface BackendTables {
  backend_kv: BackendKvTable;
}

/** `@stage/compute` kv: one app's durable key-value storage (deleted with the app). */
export interface BackendKvTable {
  app_sid: string;
  key: string;
  /** The value as JSON text. */
  value: string;
  /** Bytes of `value` (UTF-8). */
  size: number;
  updated_at: Generated<Date>;
}

/** The tables of backend logs, secrets and schedules (migration 2026-12-05-ops), in StageDatabase. */
export interface OpsTables {
  backend_logs: BackendLogsTable;
  app_secrets: AppSecretsTable;
  app_schedules: AppSchedulesTable;
  app_schedule_runs: AppScheduleRunsTable;
}

export type LogSource = 'request' | 'schedule';

/** A console.* line of an app's backend; the newest STAGE_BACKEND_LOG_KEEP of an app are kept. */
export interface BackendLogsTable {
  id: Generated<number>;
  app_sid: string;
  logged_at: Date;
  level: LogLevel;
  /** Known secret values of the app replaced by [secret NAME]. */
  message: string;
  /** The request id of the request or scheduled run it belongs to; null when it cannot be told. */
  request_id: string | null;
  source: LogSource;
  /** The schedule's name, for a line of a scheduled run. */
  schedule: string | null;
}

/** An app secret: `value` is AES-GCM ciphertext (encryptSecret), never the plaintext. */
export interface AppSecretsTable {
  app_sid: string;
  name: string;
  value: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One entry of the app's config.schedules, as checked (schedule-config.ts), and its next tick. */
export interface AppSchedulesTable {
  app_sid: string;
  name: string;
  definition: unknown;
  next_run_at: Date;
  updated_at: Generated<Date>;
}

export type ScheduleRunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** One tick of a schedule: `(app_sid, schedule, scheduled_at)` is unique, so a tick runs once. */
export interface AppScheduleRunsTable {
  id: string;
  app_sid: string;
  schedule: string;
  scheduled_at: Date;
  status: ScheduleRunStatus;
  started_at: Date | null;
  finished_at: Date | null;
  /** The backend's answer's status (a route), null for a workflow or a failure before it. */
  http_status: number | null;
  error: string | null;
  /** The request id its log lines carry. */
  request_id: string | null;
  workflow_run_id: string | null;
}
