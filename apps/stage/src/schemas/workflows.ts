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

const Status = Type.Union([
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);

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
  'input' | 'result' | 'key_scope' | 'request_hash'
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
