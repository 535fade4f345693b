import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';
import type { StepStatus } from '../database/workflows.js';
import { storable, storableText } from '../domain/workflows/limits.js';

// The steps of durable runs (domain/workflows/engine.ts), by path: a step's row is written before
// its attempt starts (status running) and when it ends, before the next step begins.

/** A run's steps in the order they started. */
export function runSteps(db: StageDb, runId: string) {
  return db
    .selectFrom('workflow_run_steps')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('started_at')
    .orderBy('index')
    .orderBy('path')
    .execute();
}

export interface StepStart {
  path: string;
  index: number;
  block: string;
  as: string | null;
  input: unknown;
  attempts: number;
  status?: StepStatus;
  /** What a resumed run reads back (a sleep's end, a loop's items). */
  value?: unknown;
}

/** Records a step's attempt as started (or a sleep, a wait as begun), replacing an earlier try. */
export function startStep(db: StageDb, runId: string, step: StepStart) {
  const row = {
    index: step.index,
    block: step.block,
    as: step.as,
    input: storable(step.input ?? null),
    output: null,
    error: null,
    duration_ms: 0,
    status: step.status ?? ('running' as const),
    attempts: step.attempts,
    value: step.value === undefined ? null : storable(step.value),
  };
  return db
    .insertInto('workflow_run_steps')
    .values({ run_id: runId, path: step.path, ...row })
    .onConflict((oc) =>
      oc.columns(['run_id', 'path']).doUpdateSet({
        ...row,
        started_at: sql<Date>`now()`,
        recorded_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

export interface StepEnd {
  status: StepStatus;
  output: unknown;
  /** The whole output, when `output` keeps part of it. */
  value?: unknown;
  error: string | null;
  durationMs: number;
  input?: unknown;
}

/** Records how a step (or its attempt) ended. */
export function endStep(db: StageDb, runId: string, path: string, end: StepEnd) {
  return db
    .updateTable('workflow_run_steps')
    .set({
      status: end.status,
      output: storable(end.output ?? null),
      ...(end.value === undefined ? {} : { value: storable(end.value) }),
      ...(end.input === undefined ? {} : { input: storable(end.input) }),
      error: end.error === null ? null : storableText(end.error),
      duration_ms: end.durationMs,
      recorded_at: sql<Date>`now()`,
    })
    .where('run_id', '=', runId)
    .where('path', '=', path)
    .execute();
}

/** Ends a waiting step (approved, rejected, an event came): undefined when it was not waiting. */
export function settleWait(
  db: StageDb,
  runId: string,
  path: string,
  end: { status: 'completed' | 'failed'; output: unknown; error: string | null },
) {
  return db
    .updateTable('workflow_run_steps')
    .set({
      status: end.status,
      output: storable(end.output),
      error: end.error,
      duration_ms: sql<number>`least(2147483647, floor(extract(epoch from (now() - started_at)) * 1000))::integer`,
      recorded_at: sql<Date>`now()`,
    })
    .where('run_id', '=', runId)
    .where('path', '=', path)
    .where('status', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();
}

/** The step a waiting run waits at (an approval or an event). */
export function waitingStep(db: StageDb, runId: string) {
  return db
    .selectFrom('workflow_run_steps')
    .selectAll()
    .where('run_id', '=', runId)
    .where('status', '=', 'waiting')
    .where('block', '=', 'waitFor')
    .orderBy('started_at')
    .executeTakeFirst();
}

/**
 * Forgets the failed control steps of a run retried from where it failed (a rejected approval is
 * asked again, a condition evaluated again); a failed block's row stays, so that its next attempt
 * counts on from it (and sends a new idempotency key).
 */
export async function forgetFailedControls(db: StageDb, runId: string) {
  await db
    .deleteFrom('workflow_run_steps')
    .where('run_id', '=', runId)
    .where('status', '=', 'failed')
    .where('block', 'in', ['waitFor', 'if', 'forEach', 'set', 'return', 'sleep'])
    .execute();
  return true;
}
