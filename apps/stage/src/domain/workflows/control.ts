// What people do to a run once it started (issue 40): approve or reject the waitFor it waits at,
// retry it from its failed step with the workflow as it is now or as it was.
import { conflict, notFound } from '@platform/core';
import type { AppRow } from '../../database/index.js';
import { forgetFailedControls, settleWait, waitingStep } from '../../repositories/run-steps.js'; // prettier-ignore
import { finishRun, findRunById } from '../../repositories/runs.js';
import type { StageBaseContext } from '../state.js';
import { requeue, type WorkflowEngine } from './durable.js';
import { loadWorkflow } from './run.js';

async function runOf(ctx: StageBaseContext, app: AppRow, runId: string) {
  const run = await findRunById(ctx.db, runId);
  if (!run || run.app_sid !== app.sid) throw notFound('Run', runId);
  return run;
}

/**
 * Approves (the run goes on, the waitFor's output `{ status: "approved", by, comment }`) or
 * rejects (the run fails, naming who) the approval a run waits for; 409 when it waits for none.
 */
export async function decide(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
  app: AppRow,
  runId: string,
  decision: { approved: boolean; by: string; comment?: string },
) {
  const run = await runOf(ctx, app, runId);
  const step = run.status === 'waiting' ? await waitingStep(ctx.db, runId) : undefined;
  const approval = (step?.input as { approval?: unknown } | null)?.approval;
  if (!step || !approval)
    throw conflict(`Run ${runId} is ${run.status}, not waiting for an approval`);
  const output = {
    status: decision.approved ? 'approved' : 'rejected',
    by: decision.by,
    ...(decision.comment ? { comment: decision.comment } : {}),
  };
  let done: boolean;
  if (decision.approved) {
    done = await requeue(
      engine,
      runId,
      ['waiting'],
      async (trx) =>
      Boolean(await settleWait(trx, runId, step.path, { status: 'completed', output, error: null })), // prettier-ignore
    );
  } else {
    const message = `Workflow ${run.workflow}, ${step.path} (waitFor): rejected by ${decision.by}${decision.comment ? `: ${decision.comment}` : ''}`; // prettier-ignore
    done = await ctx.db.transaction().execute(async (trx) => {
      const settled = await settleWait(trx, runId, step.path, { status: 'failed', output, error: message }); // prettier-ignore
      if (!settled) return false;
      await finishRun(trx, runId, { status: 'failed', result: null, error_code: 'FORBIDDEN', error: message }); // prettier-ignore
      return true;
    });
  }
  if (!done) throw conflict(`Run ${runId} was decided or woke meanwhile`);
  return (await findRunById(ctx.db, runId))!;
}

/**
 * Runs a failed run again from its failed step: the steps it completed are kept (matched by
 * path), the failed one runs again (a new attempt, so a new idempotency key). `current`: with
 * the workflow as the app's file has it now; `original`: as the run had it.
 */
export async function retry(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
  app: AppRow,
  runId: string,
  which: 'current' | 'original',
) {
  const run = await runOf(ctx, app, runId);
  if (run.status !== 'failed') throw conflict(`Run ${runId} is ${run.status}: only a failed run is retried`); // prettier-ignore
  if (run.definition === null)
    throw conflict(`Run ${runId} was recorded before durable runs: run the workflow again instead`);
  let changes = {};
  if (which === 'current') {
    const now = await loadWorkflow(ctx, app, run.workflow);
    changes = { definition: now.content, file_version: now.version, session_id: app.session_id };
  }
  const queued = await requeue(engine, runId, ['failed'], (trx) => forgetFailedControls(trx, runId), changes); // prettier-ignore
  if (!queued) throw conflict(`Run ${runId} is no longer failed`);
  return (await findRunById(ctx.db, runId))!;
}
