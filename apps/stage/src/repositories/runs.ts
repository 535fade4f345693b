import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';
import { runSteps } from './run-steps.js';

/** The durable jobs' table (libs/core jobs): not among the stage's own tables' types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the jobs table is libs/core's
type JobsFrom = (table: 'jobs as j') => any;
import { storable, storableText } from '../domain/workflows/limits.js';
import type { RunStatus, RunTrigger } from '../database/workflows.js';

export interface NewRun {
  id: string;
  app_sid: string;
  workflow: string;
  input: Record<string, unknown>;
  caller: string;
  key_scope: string;
  idempotency_key: string | null;
  request_hash: string;
  definition: string;
  session_id: string;
  file_version: number;
  identity: unknown;
  trigger: RunTrigger;
}

/** Inserted first, status queued: the unique (app, caller, key) index lets one duplicate in. */
export function insertRun(db: StageDb, run: NewRun) {
  return db
    .insertInto('workflow_runs')
    .values({
      ...run,
      workflow: storableText(run.workflow),
      status: 'queued',
      input: storable(run.input),
      identity: storable(run.identity),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Takes the run for the job `jobId`: a queued run, a sleeping or waiting one that is due, or one
 * this job already held (its run resumed after a crash). Undefined: the run is not this job's.
 */
export function claimRun(db: StageDb, runId: string, jobId: string) {
  return db
    .updateTable('workflow_runs')
    .set({ status: 'running', job_id: jobId, wake_at: null })
    .where('id', '=', runId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([eb('status', '=', 'running'), eb('job_id', '=', jobId)]),
        eb.and([
          eb('status', 'in', ['sleeping', 'waiting']),
          eb('wake_at', '<=', sql<Date>`now()`),
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** A run the job `jobId` holds, set sleeping or waiting until `wakeAt`, held by no job. */
export function parkRun(
  db: StageDb,
  runId: string,
  jobId: string,
  status: 'sleeping' | 'waiting',
  wakeAt: Date,
) {
  return db
    .updateTable('workflow_runs')
    .set({ status, wake_at: wakeAt, job_id: null })
    .where('id', '=', runId)
    .where('job_id', '=', jobId)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
}

/** Queues a run that waits (approved, an event came) or failed (retried); undefined when it does not. */
export function requeueRun(
  db: StageDb,
  runId: string,
  from: Array<'waiting' | 'failed' | 'sleeping'>,
  changes: { definition?: string; file_version?: number; session_id?: string } = {},
) {
  return db
    .updateTable('workflow_runs')
    .set((eb) => ({
      ...changes,
      status: 'queued',
      wake_at: null,
      job_id: null,
      error: null,
      error_code: null,
      finished_at: null,
      retries: from.includes('failed') ? eb('retries', '+', 1) : eb.ref('retries'),
    }))
    .where('id', '=', runId)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** Runs asleep or waiting whose time has come (their wake-up job may have been lost). */
export function dueRuns(db: StageDb, limit: number) {
  return db
    .selectFrom('workflow_runs')
    .select('id')
    .where('status', 'in', ['sleeping', 'waiting'])
    .where('wake_at', '<=', sql<Date>`now()`)
    .orderBy('wake_at')
    .limit(limit)
    .execute();
}

export function findRunById(db: StageDb, id: string) {
  return db.selectFrom('workflow_runs').selectAll().where('id', '=', id).executeTakeFirst();
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
    // A durable run whose job is queued or running is resumed by it, never marked interrupted.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          (selectFrom as unknown as JobsFrom)('jobs as j')
            .select('j.id')
            .whereRef('j.id', '=', 'workflow_runs.job_id')
            .where('j.status', 'in', ['queued', 'running']),
        ),
      ),
    )
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
      job_id: null,
      wake_at: null,
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
      'trigger',
      'file_version',
      'retries',
      'wake_at',
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
  return { run, steps: await runSteps(db, id) };
}
