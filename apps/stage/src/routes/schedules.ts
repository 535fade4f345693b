import { ok, responses, Type, type Access, type ServiceRoutes } from '@platform/core';
import { appOwner } from '../access.js';
import { appScheduler } from '../backends/scheduler.js';
import type { ScheduleDefinition } from '../backends/schedule-config.js';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';
import { findApp } from '../repositories/apps.js';
import { listSchedules, recentScheduleRuns } from '../repositories/schedules.js';
import { AppParams } from '../schemas/apps.js';
import { ScheduleListQuery, ScheduleSchema } from '../schemas/schedules.js';

const time = (date: Date | null) => (date ? date.getTime() : null);

/**
 * GET /api/v1/stage/apps/:sid/schedules: the app's schedules (from its config.schedules, see
 * backends/schedule-config.ts) with their next tick and recent runs. Registering it defines the
 * schedules' jobs (backends/scheduler.ts).
 */
export const scheduleRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, ctx) => {
  const { db } = ctx;
  appScheduler(ctx, app.log);
  // Runs tell what the backend answered and why it failed: the app's owners (and admins).
  const READ: Access = { resource: 'stage.schedule', action: 'read', rule: 'owner', owner: appOwner(db) }; // prettier-ignore

  app.get(
    '/apps/:sid/schedules',
    {
      config: { access: READ },
      schema: {
        operationId: 'listAppSchedules',
        summary: "An app's schedules and their runs",
        description:
          "The schedules of the app's config.schedules (set with PATCH /apps/:sid), each with its next tick and its recent runs (`runs` per schedule, newest first: status queued, running, completed or failed, the backend's HTTP status or the workflow run, the error). The newest STAGE_SCHEDULE_RUNS_KEEP runs of each are kept. The app's owners and admins.",
        params: AppParams,
        querystring: ScheduleListQuery,
        response: responses({ 200: Type.Array(ScheduleSchema) }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const schedules = await listSchedules(db, found.sid);
      const runs = request.query.runs > 0 ? await recentScheduleRuns(db, found.sid, request.query.runs) : []; // prettier-ignore
      return ok(
        schedules.map((row) => {
          const definition = row.definition as ScheduleDefinition;
          return {
            name: row.name,
            cron: definition.cron,
            timezone: definition.timezone ?? 'UTC',
            route: definition.route ?? null,
            method: definition.route === undefined ? null : (definition.method ?? 'POST'),
            workflow: definition.workflow ?? null,
            nextRunAt: row.next_run_at.getTime(),
            runs: runs
              .filter((run) => run.schedule === row.name)
              .map((run) => ({
                id: run.id,
                scheduledAt: run.scheduled_at.getTime(),
                status: run.status,
                startedAt: time(run.started_at),
                finishedAt: time(run.finished_at),
                httpStatus: run.http_status,
                error: run.error,
                workflowRunId: run.workflow_run_id,
              })),
          };
        }),
      );
    },
  );
};
