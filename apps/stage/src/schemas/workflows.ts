import { Nullable, PagedQuery, Type } from '@platform/core';
import type { Selectable } from '@platform/db';
import type { WorkflowRunsTable, WorkflowRunStepsTable } from '../database/workflows.js';
import { MAX_IDEMPOTENCY_KEY } from '../domain/workflows/run.js';
import { EpochMs } from './sessions.js';

export const RunParams = Type.Object({
  appSid: Type.String({ minLength: 1, maxLength: 100, description: 'The app sid or name' }),
  workflowName: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'A workflow of its /app/platform.workflows.json',
  }),
});

export const RunBody = Type.Optional(
  Type.Object({
    input: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'The workflow inputs, read as {{ input.<key> }}',
      }),
    ),
  }),
);

export const RunHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_IDEMPOTENCY_KEY,
      description: 'A repeat with the same key answers the first run without running again',
    }),
  ),
});

const Status = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('sleeping'),
    Type.Literal('waiting'),
    Type.Literal('completed'),
    Type.Literal('failed'),
  ],
  {
    description:
      'queued, running, sleeping (a sleep step), waiting (an approval or an event), completed, failed',
  },
);

export const RunListQuery = PagedQuery({
  workflow: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only runs of this workflow' }),
  ),
  status: Type.Optional(Status),
});

export const AppRunParams = Type.Object({
  sid: Type.String({ minLength: 1, maxLength: 100, description: 'The app sid or name' }),
  runId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const RunSchema = Type.Object({
  id: Type.String({ description: 'run_ and 12 random characters' }),
  appSid: Type.String(),
  workflow: Type.String(),
  status: Status,
  error: Nullable(
    Type.Object({
      code: Type.String({ description: 'An error code, or INTERRUPTED (its process stopped)' }),
      message: Type.String(),
    }),
  ),
  caller: Type.String({
    description: 'Who ran it: an email, key:<name>, service:<name>, anonymous',
  }),
  idempotencyKey: Nullable(Type.String()),
  startedAt: EpochMs('When it started'),
  finishedAt: Nullable(EpochMs('When it ended')),
  trigger: Type.String({ description: 'api, backend, schedule, webhook, event' }),
  fileVersion: Nullable(
    Type.Integer({ description: 'The version of /app/platform.workflows.json it runs' }),
  ),
  retries: Type.Integer({ description: 'Times it was retried from its failed step' }),
  wakeAt: Nullable(EpochMs('When a sleeping run wakes, or a waiting one times out')),
});

export const StepRecordSchema = Type.Object({
  index: Type.Integer({ description: 'From 0, as steps[n] of the definition' }),
  block: Type.String(),
  as: Nullable(Type.String()),
  input: Type.Unknown({ description: 'Its fields after templates (null when they failed)' }),
  output: Type.Unknown({
    description:
      'Its output; of sheets.getValues only the first 3 rows of values, with recordedRows and rows',
  }),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
});

export const RunDetailSchema = Type.Object({
  ...RunSchema.properties,
  input: Type.Record(Type.String(), Type.Unknown()),
  result: Type.Unknown({ description: 'The payload of its respond step (null without one)' }),
  steps: Type.Array(StepRecordSchema),
});

type ListedRun = Omit<
  Selectable<WorkflowRunsTable>,
  | 'input'
  | 'result'
  | 'key_scope'
  | 'request_hash'
  | 'definition'
  | 'session_id'
  | 'identity'
  | 'job_id'
>;

/** A run as listed: without its input and result (the detail has them). */
export const toRun = (row: ListedRun) => ({
  id: row.id,
  appSid: row.app_sid,
  workflow: row.workflow,
  status: row.status,
  error:
    row.error === null ? null : { code: row.error_code ?? 'INTERNAL_ERROR', message: row.error },
  caller: row.caller,
  idempotencyKey: row.idempotency_key,
  startedAt: row.started_at.getTime(),
  finishedAt: row.finished_at ? row.finished_at.getTime() : null,
  trigger: row.trigger,
  fileVersion: row.file_version,
  retries: row.retries,
  wakeAt: row.wake_at ? row.wake_at.getTime() : null,
});

export const toStep = (row: Selectable<WorkflowRunStepsTable>) => ({
  index: row.index,
  block: row.block,
  as: row.as,
  input: row.input ?? null,
  output: row.output ?? null,
  error: row.error,
  durationMs: row.duration_ms,
});

/** A step as the run page follows it: where it is, its status, attempts and timing. */
export const RunStepSchema = Type.Object({
  ...StepRecordSchema.properties,
  path: Type.String({ description: 'Its place: steps[2], steps[3].then[0], steps[4].forEach[7][0]' }), // prettier-ignore
  status: Type.String({ description: 'running, completed, failed, waiting (a sleep, a waitFor)' }),
  attempts: Type.Integer({ description: 'Attempts so far (retry)' }),
  startedAt: EpochMs('When its (last) attempt started'),
  recordedAt: EpochMs('When it was last recorded'),
});

export const toRunStep = (row: Selectable<WorkflowRunStepsTable>) => ({
  ...toStep(row),
  path: row.path,
  status: row.status,
  attempts: row.attempts,
  startedAt: row.started_at.getTime(),
  recordedAt: row.recorded_at.getTime(),
});

export const RunAcceptedSchema = Type.Object({
  runId: Type.String(),
  status: Type.String({ description: 'queued, running, sleeping or waiting' }),
});

export const DecisionBody = Type.Optional(
  Type.Object({
    comment: Type.Optional(
      Type.String({ maxLength: 1000, description: 'Recorded with the decision' }),
    ),
  }),
);

export const RetryBody = Type.Optional(
  Type.Object({
    workflow: Type.Optional(
      Type.Union([Type.Literal('current'), Type.Literal('original')], {
        description:
          'current (default): the workflows file as it is now; original: as the run had it',
      }),
    ),
  }),
);

export const WorkflowListSchema = Type.Array(
  Type.Object({
    name: Type.String(),
    description: Nullable(Type.String()),
    steps: Type.Integer({ description: 'Its top-level steps' }),
    triggers: Type.Array(
      Type.Unknown({
        description:
          '{ schedule: { cron, timezone } }, { webhook: { url, secret } }, { event, match? }',
      }),
    ),
    error: Nullable(Type.String({ description: 'Why it does not validate (naming the step)' })),
  }),
);
