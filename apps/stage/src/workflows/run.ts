import type { Identity, ServiceContext } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';

export type StageContext = ServiceContext<StageDatabase, StageConfig>;

/** What starts a run: the HTTP route, and `@stage/compute` in an app backend. */
export interface RunRequest {
  /** The published app's sid (or name). */
  app: string;
  workflow: string;
  input: Record<string, unknown>;
  /** The caller: `{{ auth.email }}`, and who delegated Google tokens are asked for. */
  identity: Identity;
  /** A retried run with the same key returns the first run's result without repeating it. */
  idempotencyKey?: string;
}

/** A recorded run (GET /api/v1/stage/apps/:sid/runs/:runId), as the run route answers it. */
export interface WorkflowRun {
  id: string;
  status: 'completed' | 'failed';
  result: unknown;
  error: string | null;
}

/** Runs one workflow of a published app and records it. Throws HttpErrors (400/404) on bad definitions. */
export async function runWorkflow(_ctx: StageContext, _request: RunRequest): Promise<WorkflowRun> {
  throw new Error('workflows are not built yet');
}
