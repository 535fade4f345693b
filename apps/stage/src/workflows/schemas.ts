import { Nullable, PagedQuery, Type } from '@platform/core';
import { EpochMs } from '../schemas/sessions.js';
import { MAX_IDEMPOTENCY_KEY } from './run.js';

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

export const SpreadsheetParams = Type.Object({
  sid: Type.String({ minLength: 1, maxLength: 100, description: 'The app sid or name' }),
  spreadsheetId: Type.String({ minLength: 1, maxLength: 64 }),
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

const CellSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const SpreadsheetSchema = Type.Object({
  spreadsheetId: Type.String(),
  title: Type.String(),
  createdAt: EpochMs('When it was created'),
  sheets: Type.Array(
    Type.Object({
      sheetId: Type.Integer(),
      title: Type.String(),
      index: Type.Integer(),
      values: Type.Array(Type.Array(CellSchema)),
    }),
  ),
});
