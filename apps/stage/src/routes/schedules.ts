import { ok, responses, Type, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import { findApp } from '../repositories/apps.js';
import { listSchedules, recentScheduleRuns } from '../repositories/schedules.js';
import { AppParams } from '../schemas/apps.js';
import { ScheduleListQuery, ScheduleSchema, toSchedule } from '../schemas/schedules.js';
import type { StageRoutes } from '../domain/state.js';

/**
 * GET /api/v1/stage/apps/:sid/schedules: the app's schedules (from its config.schedules, see
 * domain/backends/schedule-config.ts) with their next tick and recent runs. Their jobs are the
 * instance's state's (domain/backends/scheduler.ts).
 */
export const scheduleRoutes: StageRoutes = async (app, ctx) => {
  const { db } = ctx;
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
      return ok(schedules.map((row) => toSchedule(row, runs)));
    },
  );
};
