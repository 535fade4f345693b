import { describeIdentity, notFound, ok, responses, Type, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import type { StageRoutes } from '../domain/state.js';
import { decide, retry } from '../domain/workflows/control.js';
import { findApp } from '../repositories/apps.js';
import { runSteps } from '../repositories/run-steps.js';
import { findRunById } from '../repositories/runs.js';
import {
  AppRunParams,
  DecisionBody,
  RetryBody,
  RunSchema,
  RunStepSchema,
  toRun,
  toRunStep,
} from '../schemas/workflows.js';

/** How often a live run stream looks for steps other instances recorded. */
const POLL_MS = 1000;
/** A live run stream ends after this long (the page reconnects). */
const FOLLOW_MAX_MS = 15 * 60_000;

/** GET .../runs/:runId/steps and /stream; POST .../approve, /reject, /retry (issue 40). */
export const runControlRoutes: StageRoutes = async (app, ctx) => {
  const { db } = ctx;
  const owner = appOwner(db);
  const READ: Access = { resource: 'stage.run', action: 'read', rule: 'owner', owner };
  // Deciding for a run, or running it again, is changing the app: its owners and admins.
  const CHANGE: Access = { resource: 'stage.app', action: 'update', rule: 'owner', owner };
  const streams = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.abort('the service is stopping');
  });

  const runOf = async (sid: string, runId: string) => {
    const found = await findApp(db, sid);
    const run = await findRunById(db, runId);
    if (!run || run.app_sid !== found.sid) throw notFound('Run', runId);
    return { found, run };
  };

  app.get(
    '/apps/:sid/runs/:runId/steps',
    {
      config: { access: READ },
      schema: {
        operationId: 'listRunSteps',
        summary: "A workflow run's steps, with their paths, status, attempts and timing",
        description:
          'Every step the run recorded, in the order they started: its path in the definition (steps[2].then[0], steps[3].forEach[5][0]), block (or control key: if, forEach, set, return, sleep, waitFor), input, output, error, status (running, completed, failed, waiting), attempts, startedAt and durationMs. The app owners and admins.',
        params: AppRunParams,
        response: responses({ 200: Type.Array(RunStepSchema) }),
      },
    },
    async (request) => {
      await runOf(request.params.sid, request.params.runId);
      return ok((await runSteps(db, request.params.runId)).map(toRunStep));
    },
  );

  app.get(
    '/apps/:sid/runs/:runId/stream',
    {
      config: { access: READ },
      schema: {
        operationId: 'streamRun',
        summary: 'A workflow run, live (Server-Sent Events)',
        description:
          'text/event-stream: a `run` event (the run as GET .../runs/:runId lists it) and a `steps` event (its steps as GET .../steps answers them) at once and whenever a step is recorded or the run changes; an `end` event when the run completed or failed (or after 15 minutes: reconnect), `error` when reading failed. Stops when the client goes away.',
        params: AppRunParams,
        response: responses({ 200: RunStepSchema }),
      },
    },
    async (request, reply) => {
      const { runId } = request.params;
      await runOf(request.params.sid, runId);
      const stop = new AbortController();
      streams.add(stop);
      reply.hijack();
      const res = reply.raw;
      res.once('close', () => stop.abort('the client went away'));
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      });
      const send = (event: string, data: unknown) => {
        if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const events = ctx.state.workflows.events;
      let wake: () => void = () => undefined;
      const onStep = (id: string) => id === runId && wake();
      const onSettled = (settled: { runId: string }) => settled.runId === runId && wake();
      events.on('step', onStep);
      events.on('settled', onSettled);
      const deadline = Date.now() + FOLLOW_MAX_MS;
      let last = '';
      try {
        while (!stop.signal.aborted && Date.now() < deadline) {
          const run = await findRunById(db, runId);
          if (!run) break;
          const steps = (await runSteps(db, runId)).map(toRunStep);
          const now = JSON.stringify([run.status, run.wake_at, steps]);
          if (now !== last) {
            send('run', toRun(run));
            send('steps', steps);
            last = now;
          }
          if (run.status === 'completed' || run.status === 'failed') break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            stop.signal.addEventListener('abort', wake, { once: true });
          });
        }
        send('end', { reason: stop.signal.aborted ? String(stop.signal.reason) : 'the run ended' });
      } catch (error) {
        request.log.error({ err: error }, 'stage runs: a live stream failed');
        send('error', { code: 'INTERNAL_ERROR', message: 'Reading the run failed; reconnect' });
      } finally {
        events.off('step', onStep);
        events.off('settled', onSettled);
        streams.delete(stop);
        res.end();
      }
    },
  );

  for (const [action, approved] of [
    ['approve', true],
    ['reject', false],
  ] as const)
    app.post(
      `/apps/:sid/runs/:runId/${action}`,
      {
        config: { access: CHANGE },
        schema: {
          operationId: approved ? 'approveRun' : 'rejectRun',
          summary: approved
            ? 'Approve what a workflow run waits for'
            : 'Reject what a workflow run waits for',
          description: approved
            ? 'The run waits at a `waitFor: { approval }` step: it goes on (on any instance), that step\'s output `{ status: "approved", by, comment }`. 409 when the run waits for no approval. Those who may change the app (its owners, admins).'
            : 'The run waits at a `waitFor: { approval }` step: it ends failed (FORBIDDEN), naming who rejected it; POST .../retry asks again. 409 when it waits for no approval. Those who may change the app.',
          params: AppRunParams,
          body: DecisionBody,
          response: responses({ 200: RunSchema }),
        },
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const { found } = await runOf(request.params.sid, request.params.runId);
        const by = describeIdentity(request.identity);
        const comment = request.body?.comment;
        return ok(
          toRun(
            await decide(ctx, ctx.state.workflows, found, request.params.runId, {
              approved,
              by,
              comment,
            }),
          ),
        );
      },
    );

  app.post(
    '/apps/:sid/runs/:runId/retry',
    {
      config: { access: CHANGE },
      schema: {
        operationId: 'retryRun',
        summary: 'Retry a failed workflow run from its failed step',
        description:
          'The steps it completed are kept (matched by their path) and not run again; the failed step runs again as a new attempt (a new idempotency key), then the rest. `workflow`: `current` (default) runs /app/platform.workflows.json as it is now, `original` as the run had it. The run goes on in the background (status queued): follow it with GET .../runs/:runId. 409 unless it failed. Those who may change the app.',
        params: AppRunParams,
        body: RetryBody,
        response: responses({ 202: RunSchema }),
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { found } = await runOf(request.params.sid, request.params.runId);
      const which = request.body?.workflow ?? 'current';
      const run = await retry(ctx, ctx.state.workflows, found, request.params.runId, which);
      return reply.code(202).send(ok(toRun(run)));
    },
  );
};
