import { newId, runPeriodically } from '@platform/core';
import { appForBackend } from '../../repositories/backends.js';
import {
  claimTick,
  dueSchedules,
  findScheduleRun,
  insertScheduleRun,
  pruneScheduleRuns,
  updateScheduleRun,
} from '../../repositories/schedules.js';
import { labelOf } from '../origins.js';
import type { StageBaseContext } from '../state.js';
import type { StartRun } from '../workflows/run.js';
import { BACKEND_ENTRIES } from './bundle.js';
import type { WireRequest } from './protocol.js';
import type { BackendRunner } from './runner.js';
import { nextTick, type ScheduleDefinition } from './schedule-config.js';

// App schedules (schedule-config.ts) on the durable jobs: a periodic job (one row, so one
// instance at a time) looks for due schedules every STAGE_SCHEDULE_TICK_MS; each due tick is
// claimed by moving the schedule to its next tick where it still is at this one, in the
// transaction that stores the tick's run and its job, so a tick runs once however many instances
// look. A tick missed while no instance ran runs once when one is back, then the schedule goes
// on from the present. The run's job is not resumable: a run cut short by a crash fails
// (INTERRUPTED) rather than run twice. Schedules of a deleted app go with it.

const BATCH = 100;

class TickTaken extends Error {}

type Outcome = {
  status: 'completed' | 'failed';
  http_status?: number | null;
  error?: string | null;
  workflow_run_id?: string | null;
};

/** The app's own origin (origins.ts) as a scheduled request's URL has it. */
function appOrigin(ctx: StageBaseContext, sid: string) {
  const base = new URL(ctx.config.origins.publicUrl ?? 'http://localhost');
  return `${base.protocol}//${labelOf(sid)}.${ctx.config.origins.appsDomain}${base.port ? `:${base.port}` : ''}`; // prettier-ignore
}

/** A synthetic request of the backend: no visitor (env.auth is the schedule), the app acting. */
async function runRoute(
  ctx: StageBaseContext,
  runner: BackendRunner,
  run: { id: string; app_sid: string; schedule: string; scheduled_at: Date },
  definition: ScheduleDefinition,
): Promise<Outcome> {
  const sid = run.app_sid;
  const found = await appForBackend(ctx.db, sid);
  if (!found) return { status: 'failed', error: `App ${sid} not found` };
  const build = await runner.builds.get(found);
  if (build.kind === 'none')
    return { status: 'failed', error: `App ${sid} has no backend (add ${BACKEND_ENTRIES[0]} to its session)` }; // prettier-ignore
  if (build.kind === 'error') return { status: 'failed', error: `The backend did not build: ${build.message}` }; // prettier-ignore
  const headers: Array<[string, string]> = [
    ['user-agent', 'platform-stage-schedule'],
    ['x-stage-app', sid],
    ['x-stage-schedule', run.schedule],
    ['x-stage-scheduled-time', run.scheduled_at.toISOString()],
  ];
  const body = definition.body === undefined ? null : new TextEncoder().encode(JSON.stringify(definition.body)); // prettier-ignore
  if (body) headers.push(['content-type', 'application/json']);
  const request: WireRequest = {
    method: definition.method ?? 'POST',
    url: `${appOrigin(ctx, sid)}${definition.route}`,
    headers,
    body,
  };
  const outcome = await runner.run({
    sid,
    hash: build.hash,
    code: build.code,
    request,
    env: {
      auth: { kind: 'schedule', email: null, name: run.schedule },
      app: { sid, name: found.name, config: found.config, basePath: '/api' },
    },
    context: { sid, identity: await runner.identityOf(found) },
  }, { requestId: run.id, source: 'schedule', schedule: run.schedule }); // prettier-ignore
  if (!outcome.ok)
    return { status: 'failed', error: `The backend failed (${outcome.failure.kind}): ${outcome.failure.message}` }; // prettier-ignore
  const status = outcome.response.status;
  return status < 400
    ? { status: 'completed', http_status: status }
    : { status: 'failed', http_status: status, error: `The backend answered ${status}` };
}

async function runScheduledWorkflow(
  ctx: StageBaseContext,
  runner: BackendRunner,
  startRun: StartRun,
  run: { id: string; app_sid: string; schedule: string; scheduled_at: Date },
  definition: ScheduleDefinition,
): Promise<Outcome> {
  const found = await appForBackend(ctx.db, run.app_sid);
  if (!found) return { status: 'failed', error: `App ${run.app_sid} not found` };
  const result = await startRun({
    app: run.app_sid,
    workflow: definition.workflow!,
    input: definition.input ?? {},
    identity: await runner.identityOf(found),
    // The tick's own key: a repeat of it is never a second run.
    idempotencyKey: `schedule:${run.schedule}:${run.scheduled_at.toISOString()}`,
    log: ctx.log,
  });
  return {
    status: result.status,
    error: result.error,
    workflow_run_id: result.id,
  };
}

/**
 * The schedules' jobs of an instance, defined once by its setup (before its queue polls);
 * `startRun` runs a workflow with the instance's engine (state.ts).
 */
export function appScheduler(ctx: StageBaseContext, runner: BackendRunner, startRun: StartRun) {
  const { db, log } = ctx;
  const limits = ctx.config.backends;
  const runs = ctx.jobs.define<{ runId: string }>({
    kind: 'stage-schedule-run',
    resumable: false,
    maxAttempts: 1,
    handler: async ({ runId }) => {
      const run = await findScheduleRun(db, runId);
      // Its app was deleted, or the schedule removed, since: nothing to run.
      if (!run) return { skipped: 'the schedule is gone' };
      await updateScheduleRun(db, runId, { status: 'running', started_at: new Date() });
      const definition = run.definition as ScheduleDefinition;
      const outcome = await (
        definition.route !== undefined
          ? runRoute(ctx, runner, run, definition)
          : runScheduledWorkflow(ctx, runner, startRun, run, definition)
      ).catch(
        // prettier-ignore
        (error: unknown): Outcome => {
          log.error({ err: error, run: runId }, 'stage schedule: a run failed unexpectedly');
          return { status: 'failed', error: `The run failed unexpectedly (${(error as Error).message})` }; // prettier-ignore
        },
      );
      await updateScheduleRun(db, runId, { ...outcome, finished_at: new Date() });
      return outcome;
    },
    onFail: async (trx, job, error) => {
      await updateScheduleRun(trx, job.payload.runId, { status: 'failed', error, finished_at: new Date() }); // prettier-ignore
    },
  });

  /** Starts a run of every due tick this instance claims. */
  const tick = async () => {
    let started = 0;
    for (const due of await dueSchedules(db, BATCH)) {
      const from = new Date(Math.max(Date.now(), due.next_run_at.getTime()));
      const next = nextTick(due.definition, from) ?? new Date('9999-12-31T00:00:00Z');
      const runId = newId(12, 'srun_');
      try {
        await runs.start(
          { runId },
          {
            mayQueue: true,
            record: async (trx) => {
              if (!(await claimTick(trx, due, next))) throw new TickTaken();
              await insertScheduleRun(trx, { id: runId, app_sid: due.app_sid, schedule: due.name, scheduled_at: due.next_run_at }); // prettier-ignore
              await pruneScheduleRuns(trx, due.app_sid, due.name, limits.scheduleRunsKeep);
            },
          },
        );
        started += 1;
      } catch (error) {
        if (!(error instanceof TickTaken))
          log.error({ err: error, app: due.app_sid, schedule: due.name }, 'stage schedule: a tick was not started'); // prettier-ignore
      }
    }
    return { started };
  };
  if (limits.scheduleTickMs > 0)
    runPeriodically(ctx.jobs, { name: 'stage-schedules', intervalMs: limits.scheduleTickMs, task: tick }); // prettier-ignore
  return { tick };
}

export type AppScheduler = ReturnType<typeof appScheduler>;
