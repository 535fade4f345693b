import { Nullable, Type } from '@platform/core';
import type { Selectable } from '@platform/db';
import type { AppScheduleRunsTable } from '../database/backends.js';
import type { ScheduleDefinition } from '../domain/backends/schedule-config.js';
import { EpochMs } from './sessions.js';

export const ScheduleListQuery = Type.Object({
  runs: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 10,
    description: 'Recent runs listed per schedule, newest first',
  }),
});

export const ScheduleRunSchema = Type.Object({
  id: Type.String({ description: 'srun_ and 12 characters; the requestId of its log lines' }),
  scheduledAt: EpochMs('The tick it runs for'),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
  ]),
  startedAt: Nullable(EpochMs('When it started')),
  finishedAt: Nullable(EpochMs('When it ended')),
  httpStatus: Nullable(Type.Integer(), { description: "The backend's answer (a route)" }),
  error: Nullable(Type.String(), { description: 'Why it failed' }),
  workflowRunId: Nullable(Type.String(), { description: 'The workflow run (a workflow)' }),
});

export const ScheduleSchema = Type.Object({
  name: Type.String(),
  cron: Type.String(),
  timezone: Type.String({ description: 'IANA name (UTC unless the schedule says)' }),
  route: Nullable(Type.String(), { description: 'The route of the backend it requests' }),
  method: Nullable(Type.String()),
  workflow: Nullable(Type.String(), { description: 'The workflow it runs' }),
  nextRunAt: EpochMs('Its next tick'),
  runs: Type.Array(ScheduleRunSchema),
});

const time = (date: Date | null) => (date ? date.getTime() : null);

/** A schedule as listed, with its runs among `runs` (any schedule's). */
export const toSchedule = (
  row: { name: string; definition: unknown; next_run_at: Date },
  runs: ReadonlyArray<Selectable<AppScheduleRunsTable>>,
) => {
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
};
