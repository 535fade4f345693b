import { ApiError, notFound, ok, responses, Type, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import type { StageRoutes } from '../domain/state.js';
import { interruptedAfterMs, runWorkflow } from '../domain/workflows/run.js';
import { findApp } from '../repositories/apps.js';
import { findRun, interruptStaleRuns, listRuns } from '../repositories/runs.js';
import {
  AppRunParams,
  RunBody,
  RunDetailSchema,
  RunHeaders,
  RunListQuery,
  RunParams,
  RunAcceptedSchema,
  RunSchema,
  toRun,
  toStep,
} from '../schemas/workflows.js';

/** The users of an app run its workflows: members (and admins). */
const RUN: Access = { resource: 'stage.workflow', action: 'invoke' };

/** POST /api/v1/run/:appSid/:workflowName (mounted at /api/v1/run). */
export const runRoutes: StageRoutes = async (app, ctx) => {
  app.post(
    '/:appSid/:workflowName',
    {
      config: { access: RUN },
      schema: {
        operationId: 'runWorkflow',
        summary: "Run one of a published app's workflows",
        description:
          'Runs the steps of the workflow in /app/platform.workflows.json of the session the app serves, durably; answers the payload of its respond (or return) step (null without one), header x-workflow-run naming the recorded run, when the run ends within STAGE_WORKFLOW_SYNC_MS, else 202 with its runId and status (sleeping, waiting, running): follow it at GET /api/v1/stage/apps/:sid/runs/:runId. A failed step answers its error naming the step (400 definition or template, 403 refused, 404 not found, 502 a peer failing). Idempotency-Key: a repeat answers the first run (header idempotent-replayed: true); 409 when the key was used with another workflow or input, or its run is still going.',
        params: RunParams,
        headers: RunHeaders,
        body: RunBody,
        response: responses({
          200: Type.Unknown({ description: 'The respond payload' }),
          202: RunAcceptedSchema,
        }),
      },
      // The body is optional: none at all is `{}` (no input).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const run = await runWorkflow(ctx, ctx.state.workflows, {
        app: request.params.appSid,
        workflow: request.params.workflowName,
        input: request.body?.input ?? {},
        identity: request.identity,
        idempotencyKey: request.headers['idempotency-key'],
        log: request.log,
      });
      reply.header('x-workflow-run', run.id);
      if (run.replayed) reply.header('idempotent-replayed', 'true');
      if (run.pending) return reply.code(202).send(ok({ runId: run.id, status: run.state }));
      if (run.status === 'failed')
        throw new ApiError(run.code ?? 'INTERNAL_ERROR', run.error ?? 'The run failed');
      return ok(run.result);
    },
  );
};

/** GET /api/v1/stage/apps/:sid/runs and /runs/:runId (under the stage prefix). */
export const runHistoryRoutes: StageRoutes = async (app, ctx) => {
  const { db } = ctx;
  // Runs hold what each caller sent and what the peers answered: the app's owners and admins.
  const owner = appOwner(db);
  const RUNS: Access = { resource: 'stage.run', action: 'read', rule: 'owner', owner };
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
};
