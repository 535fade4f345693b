// Durable runs (issue 40): a run is a job of the service's durable queue (libs/core jobs). The job
// claims the run (claimRun), replays what the run recorded and goes on from its current step; a
// sleep or a wait parks the run (no job, nothing in memory) until a wake-up job, the periodic
// sweep, an approval or an event queues it again. A process that dies mid-run leaves its job to
// another instance once the lease expires, which resumes the run at the step it was in.
import { EventEmitter } from 'node:events';
import { ApiError, type Identity, type JobType } from '@platform/core';
import type { Kysely } from '@platform/db';
import type { StageDatabase, StageDb } from '../../database/index.js';
import { findAppBySid } from '../../repositories/apps.js';
import { runSteps } from '../../repositories/run-steps.js';
import { claimRun, dueRuns, finishRun, findRunById, parkRun, requeueRun } from '../../repositories/runs.js'; // prettier-ignore
import type { BackendRunner } from '../backends/runner.js';
import type { Outbound } from '../backends/outbound.js';
import type { StageBaseContext } from '../state.js';
import { parseWorkflow } from './definition.js';
import { Parked, Returned, runNodes, StepFailed, type RunEnv } from './engine.js';
import type { RunLog } from './peers.js';

export const RUN_JOB = 'workflow-run';

interface RunPayload {
  runId: string;
}

/** What a run's end (or park) tells those waiting on this instance. */
export interface RunSettled {
  runId: string;
  status: 'completed' | 'failed' | 'sleeping' | 'waiting';
}

/** The workflows' part of the instance's state. */
export interface WorkflowEngine {
  job: JobType<RunPayload, never, StageDatabase>;
  /** `settled` (RunSettled) when a run ends or parks here; `step` (runId) when a step is recorded. */
  events: EventEmitter;
  /** The app backends' fetch (http.request) and runner (backend.call) of the instance. */
  outbound: Outbound;
  backends: BackendRunner;
}

/**
 * Defines the run job kind on the instance's queue: called once by its setup (state.ts), which
 * keeps the engine in the instance's state and hands it to whatever runs workflows.
 */
export function setupWorkflows(
  ctx: StageBaseContext,
  parts: { outbound: Outbound; backends: BackendRunner },
): WorkflowEngine {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const engine: WorkflowEngine = { events, job: undefined as never, ...parts };
  engine.job = ctx.jobs.define<RunPayload>({
    kind: RUN_JOB,
    maxAttempts: 5,
    backoffMs: (attempts) => Math.min(1000 * 2 ** (attempts - 1), 60_000),
    handler: (payload, job) => runJob(ctx, engine, payload.runId, job),
    onFail: async (db, job, error) => {
      // Interrupted too often, or failing outside its steps (the database): the run ends failed.
      const trx = db as unknown as StageDb;
      const run = await findRunById(trx, job.payload.runId);
      if (run && run.status === 'running' && run.job_id === job.id)
        await finishRun(trx, run.id, { status: 'failed', result: null, error_code: 'INTERRUPTED', error: `Run ${run.id} could not go on: ${error}` }); // prettier-ignore
    },
  });
  return engine;
}

/** The identity a run acts for, as stored: no session id. */
export function storedIdentity(identity: Identity): Identity {
  return identity.kind === 'user' ? { ...identity, sessionId: '' } : identity;
}

async function runJob(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
  runId: string,
  job: { job: { id: string }; signal: AbortSignal; fence<DB>(db: Kysely<DB>): Promise<void> },
) {
  const { db } = ctx;
  const run = await claimRun(db, runId, job.job.id);
  if (!run || run.definition === null) return { skipped: true };
  const app = await findAppBySid(db, run.app_sid);
  const settle = (status: RunSettled['status']) => engine.events.emit('settled', { runId, status });
  const fail = async (code: string, message: string) => {
    await write((trx) => finishRun(trx, runId, { status: 'failed', result: null, error_code: code, error: message })); // prettier-ignore
    settle('failed');
  };
  const write = (fn: (trx: StageDb) => Promise<unknown>) =>
    db.transaction().execute(async (trx) => {
      await job.fence(trx as never);
      await fn(trx);
    });
  if (!app) return fail('NOT_FOUND', `Run ${runId}: its app ${run.app_sid} was deleted`);
  let workflow;
  try {
    workflow = parseWorkflow(app.name, run.definition, run.workflow);
  } catch (error) {
    return fail(error instanceof ApiError ? error.code : 'BAD_REQUEST', (error as Error).message);
  }
  const { maxRunSteps, maxItems } = ctx.config.workflows;
  const identity = run.identity as Identity;
  const env: RunEnv = {
    ctx,
    engine,
    app,
    identity,
    runId,
    workflow: workflow.name,
    log: ctx.log as RunLog,
    records: new Map(),
    write: async (fn) => void (await write(fn)),
    budget: { left: maxRunSteps, max: maxRunSteps, maxItems },
    result: { value: null },
    onStep: () => engine.events.emit('step', runId),
  };
  const scope = {
    config: app.config,
    auth: authScope(identity),
    input: run.input,
    app: { sid: app.sid, name: app.name },
    // No prototype: a step named like an Object.prototype property finds nothing there.
    steps: Object.create(null) as Record<string, unknown>,
  };
  try {
    for (const row of await runSteps(db, runId)) env.records.set(row.path, row);
    await runNodes(env, workflow.steps, 'steps', scope);
  } catch (error) {
    if (error instanceof Returned) env.result.value = error.value;
    else if (error instanceof StepFailed) return fail(error.error.code, error.error.message);
    else if (!(error instanceof Parked) && !job.signal.aborted) {
      // Whatever went wrong besides a step (the database refusing a record, a bug), the run ends
      // failed with a message that says nothing of it (logged); POST .../retry goes on from there.
      // A run whose process dies is resumed instead; one whose job was taken over writes nothing.
      ctx.log.error({ err: error, runId }, 'workflow run failed unexpectedly');
      return fail('INTERNAL_ERROR', `Workflow ${workflow.name}: the run ${runId} failed unexpectedly (the stage service logged it)`); // prettier-ignore
    } else if (error instanceof Parked) {
      await write((trx) => parkRun(trx, runId, job.job.id, error.status, error.wakeAt));
      // The wake-up, at its time (the periodic sweep wakes it should this job be lost).
      await engine.job.enqueue({ runId }, { runAt: error.wakeAt });
      settle(error.status);
      return { parked: error.status };
    } else throw error;
  }
  await write((trx) => finishRun(trx, runId, { status: 'completed', result: env.result.value, error_code: null, error: null })); // prettier-ignore
  settle('completed');
  return { completed: true };
}

/** Queues the runs whose sleep or wait is over (the periodic sweep: a lost wake-up job). */
export async function wakeDue(ctx: StageBaseContext, engine: WorkflowEngine) {
  const due = await dueRuns(ctx.db, 100);
  for (const { id } of due) await engine.job.enqueue({ runId: id });
  return { woken: due.length };
}

/**
 * Queues a parked or failed run again, in the same transaction as its job (so that a run is
 * queued exactly when a job exists for it); false when it was not in one of `from`.
 */
export async function requeue(
  engine: WorkflowEngine,
  runId: string,
  from: Array<'waiting' | 'failed' | 'sleeping'>,
  before?: (trx: StageDb) => Promise<boolean>,
  changes?: Parameters<typeof requeueRun>[3],
): Promise<boolean> {
  try {
    await engine.job.start(
      { runId },
      {
        mayQueue: true,
        record: async (trx) => {
          const db = trx as unknown as StageDb;
          if (before && !(await before(db))) throw new NotQueued();
          if (!(await requeueRun(db, runId, from, changes))) throw new NotQueued();
        },
      },
    );
    return true;
  } catch (error) {
    if (error instanceof NotQueued) return false;
    throw error;
  }
}

class NotQueued extends Error {}

/** Waits on this instance until the run settles, at most `ms`; its status then, or null. */
export function settledWithin(engine: WorkflowEngine, runId: string, ms: number) {
  return new Promise<RunSettled['status'] | null>((resolve) => {
    const timer = setTimeout(() => done(null), ms);
    timer.unref();
    const listener = (event: RunSettled) => event.runId === runId && done(event.status);
    const done = (status: RunSettled['status'] | null) => {
      clearTimeout(timer);
      engine.events.off('settled', listener);
      resolve(status);
    };
    engine.events.on('settled', listener);
  });
}

/** `{{ auth.* }}`: the caller's email (a person, or the one a service acts for), name and kind. */
export function authScope(identity: Identity) {
  switch (identity.kind) {
    case 'user':
      return { kind: 'user', email: identity.email, name: identity.name };
    case 'service':
      return {
        kind: 'service',
        name: identity.name,
        ...(identity.user ? { email: identity.user } : {}),
      };
    case 'key':
      return { kind: 'key', name: identity.name };
    default:
      return { kind: 'anonymous' };
  }
}
