import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';
import { storable, storableText } from '../domain/workflows/limits.js';
import type { RunStatus } from '../database/workflows.js';

export interface NewRun {
  id: string;
  app_sid: string;
  workflow: string;
  input: Record<string, unknown>;
  caller: string;
  key_scope: string;
  idempotency_key: string | null;
  request_hash: string;
}

/** Inserted first, status running: the unique (app, caller, key) index lets one duplicate in. */
export function insertRun(db: StageDb, run: NewRun) {
  return db
    .insertInto('workflow_runs')
    .values({
      ...run,
      workflow: storableText(run.workflow),
      status: 'running',
      input: storable(run.input),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The caller's run with this key (keys are per app and caller). */
export function findRunByKey(db: StageDb, appSid: string, keyScope: string, key: string) {
  return db
    .selectFrom('workflow_runs')
    .selectAll()
    .where('app_sid', '=', appSid)
    .where('key_scope', '=', keyScope)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * Marks failed (`INTERRUPTED`) the app's runs (or the one run) still `running` with no step
 * recorded for `afterMs`: their process ended mid-run (a live one records a step sooner).
 */
export function interruptStaleRuns(db: StageDb, appSid: string, afterMs: number, runId?: string) {
  let query = db
    .updateTable('workflow_runs')
    .set({
      status: 'failed',
      error_code: 'INTERRUPTED',
      error: sql<string>`'Run ' || id || ' was interrupted: the stage service stopped while it ran (no step ended for ' || ${sql.lit(Math.round(afterMs / 1000))} || ' s); the steps it recorded may have taken effect'`,
      finished_at: sql`now()`,
    })
    .where('app_sid', '=', appSid)
    .where('status', '=', 'running')
    .where((eb) =>
      eb(
        eb.fn.coalesce(
          eb
            .selectFrom('workflow_run_steps as s')
            .select((e) => e.fn.max('s.recorded_at').as('last'))
            .whereRef('s.run_id', '=', 'workflow_runs.id'),
          'started_at',
        ),
        '<',
        sql<Date>`now() - ${afterMs}::double precision * interval '1 millisecond'`,
      ),
    );
  if (runId !== undefined) query = query.where('id', '=', runId);
  return query.returningAll().execute();
}

export function finishRun(
  db: StageDb,
  id: string,
  outcome: { status: RunStatus; result: unknown; error_code: string | null; error: string | null },
) {
  return db
    .updateTable('workflow_runs')
    .set({
      status: outcome.status,
      result: storable(outcome.result ?? null),
      error_code: outcome.error_code,
      error: outcome.error === null ? null : storableText(outcome.error),
      finished_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface StepRecord {
  index: number;
  block: string;
  as: string | null;
  input: unknown;
  output: unknown;
  error: string | null;
  durationMs: number;
}

export function insertStep(db: StageDb, runId: string, step: StepRecord) {
  return db
    .insertInto('workflow_run_steps')
    .values({
      run_id: runId,
      index: step.index,
      block: step.block,
      as: step.as,
      input: storable(step.input ?? null),
      output: storable(step.output ?? null),
      error: step.error === null ? null : storableText(step.error),
      duration_ms: step.durationMs,
    })
    .execute();
}

export function listRuns(
  db: StageDb,
  appSid: string,
  filter: { workflow?: string; status?: RunStatus },
  page: { limit: number; offset: number },
) {
  // Without input and result (the detail has them): a list stays small.
  let query = db
    .selectFrom('workflow_runs')
    .select([
      'id',
      'app_sid',
      'workflow',
      'status',
      'error_code',
      'error',
      'caller',
      'idempotency_key',
      'started_at',
      'finished_at',
    ])
    .where('app_sid', '=', appSid);
  if (filter.workflow !== undefined) query = query.where('workflow', '=', filter.workflow);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function findRun(db: StageDb, appSid: string, id: string) {
  const run = await db
    .selectFrom('workflow_runs')
    .selectAll()
    .where('app_sid', '=', appSid)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!run) return undefined;
  const steps = await db
    .selectFrom('workflow_run_steps')
    .selectAll()
    .where('run_id', '=', id)
    .orderBy('index')
    .execute();
  return { run, steps };
}
