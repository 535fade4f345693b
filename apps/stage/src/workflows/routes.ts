import {
  ApiError,
  notFound,
  ok,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
} from '@platform/core';
import { appOwner } from '../access.js';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';
import { findApp } from '../repositories/apps.js';
import { interruptedAfterMs, runWorkflow } from './run.js';
import { findRun, interruptStaleRuns, listRuns } from './runs.js';
import {
  AppRunParams,
  RunBody,
  RunDetailSchema,
  RunHeaders,
  RunListQuery,
  RunParams,
  RunSchema,
  SpreadsheetParams,
  SpreadsheetSchema,
} from './schemas.js';
import { readSpreadsheet } from './sheets-embedded.js';
import type { Selectable } from '@platform/db';
import type { WorkflowRunsTable, WorkflowRunStepsTable } from './tables.js';

type ListedRun = Omit<
  Selectable<WorkflowRunsTable>,
  'input' | 'result' | 'key_scope' | 'request_hash'
>;

/** A run as listed: without its input and result (the detail has them). */
const toRun = (row: ListedRun) => ({
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

const toStep = (row: Selectable<WorkflowRunStepsTable>) => ({
  index: row.index,
  block: row.block,
  as: row.as,
  input: row.input ?? null,
  output: row.output ?? null,
  error: row.error,
  durationMs: row.duration_ms,
});

/** The users of an app run its workflows: members (and admins). */
const RUN: Access = { resource: 'stage.workflow', action: 'invoke' };

/** POST /api/v1/run/:appSid/:workflowName (mounted at /api/v1/run). */
export const runRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, ctx) => {
  app.post(
    '/:appSid/:workflowName',
    {
      config: { access: RUN },
      schema: {
        operationId: 'runWorkflow',
        summary: "Run one of a published app's workflows",
        description:
          'Runs the steps of the workflow in /app/platform.workflows.json of the session the app serves; answers the payload of its respond step (null without one), header x-workflow-run naming the recorded run. A failed step answers its error naming the step (400 definition or template, 403 refused, 404 not found, 502 a peer failing). Idempotency-Key: a repeat answers the first run (header idempotent-replayed: true); 409 when the key was used with another workflow or input, or its run is still going.',
        params: RunParams,
        headers: RunHeaders,
        body: RunBody,
        response: responses({ 200: Type.Unknown({ description: 'The respond payload' }) }),
      },
      // The body is optional: none at all is `{}` (no input).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const run = await runWorkflow(ctx, {
        app: request.params.appSid,
        workflow: request.params.workflowName,
        input: request.body?.input ?? {},
        identity: request.identity,
        idempotencyKey: request.headers['idempotency-key'],
        log: request.log,
      });
      reply.header('x-workflow-run', run.id);
      if (run.replayed) reply.header('idempotent-replayed', 'true');
      if (run.status === 'failed')
        throw new ApiError(run.code ?? 'INTERNAL_ERROR', run.error ?? 'The run failed');
      return ok(run.result);
    },
  );
};

/** GET /api/v1/stage/apps/:sid/runs and /runs/:runId (under the stage prefix). */
export const runHistoryRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, ctx) => {
  const { db } = ctx;
  // Runs hold what each caller sent and what the peers answered: the app's owners and admins.
  const owner = appOwner(db);
  const RUNS: Access = { resource: 'stage.run', action: 'read', rule: 'owner', owner };
  const SHEETS: Access = { resource: 'stage.spreadsheet', action: 'read', rule: 'owner', owner };
  /** The app, its runs left `running` by a stopped process marked INTERRUPTED first. */
  const appWithRuns = async (sid: string) => {
    const found = await findApp(db, sid);
    await interruptStaleRuns(db, found.sid, interruptedAfterMs(ctx));
    return found;
  };
  app.get(
    '/apps/:sid/runs',
    {
      config: { access: RUNS },
      schema: {
        operationId: 'listRuns',
        summary: "An app's workflow runs",
        description:
          'Newest first; `workflow` and `status` (running, completed, failed) filter. Without input and result: GET the run for them.',
        params: Type.Object({ sid: AppRunParams.properties.sid }),
        querystring: RunListQuery,
        response: responses({ 200: Type.Array(RunSchema) }),
      },
    },
    async (request) => {
      const found = await appWithRuns(request.params.sid);
      const { workflow, status, limit, offset } = request.query;
      return ok(
        (await listRuns(db, found.sid, { workflow, status }, { limit, offset })).map(toRun),
      );
    },
  );

  app.get(
    '/apps/:sid/runs/:runId',
    {
      config: { access: RUNS },
      schema: {
        operationId: 'getRun',
        summary: 'One workflow run with its steps',
        description: "Each step's block, as, resolved input, output, durationMs and error.",
        params: AppRunParams,
        response: responses({ 200: RunDetailSchema }),
      },
    },
    async (request) => {
      const found = await appWithRuns(request.params.sid);
      const detail = await findRun(db, found.sid, request.params.runId);
      if (!detail) throw notFound('Run', request.params.runId);
      const { run, steps } = detail;
      return ok({
        ...toRun(run),
        input: run.input,
        result: run.result ?? null,
        steps: steps.map(toStep),
      });
    },
  );

  app.get(
    '/apps/:sid/spreadsheets/:spreadsheetId',
    {
      config: { access: SHEETS },
      schema: {
        operationId: 'getSpreadsheet',
        summary: "One of an app's embedded spreadsheets",
        description: 'Every sheet with its values (trailing empty rows and cells dropped).',
        params: SpreadsheetParams,
        response: responses({ 200: SpreadsheetSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      return ok(await readSpreadsheet(db, found.sid, request.params.spreadsheetId));
    },
  );
};
