import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  badRequest,
  named,
  notFound,
  ok,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { appOwner } from '../domain/access.js';
import { originsFor } from '../domain/origins.js';
import type { StageRoutes } from '../domain/state.js';
import { parseWorkflow, WORKFLOWS_FILE } from '../domain/workflows/definition.js';
import { startTriggered, verifyDelivery, webhookOf } from '../domain/workflows/triggers-run.js';
import { findApp, findAppBySid } from '../repositories/apps.js';
import { readFile } from '../repositories/files.js';
import { RunAcceptedSchema, WorkflowListSchema } from '../schemas/workflows.js';

const MAX_HOOK_BODY = 256 * 1024;

/** GET /apps/:sid/workflows (with their triggers) and POST /hooks/:token (a webhook trigger). */
export const triggerRoutes: StageRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  // The webhooks' secrets are shown: those who may change the app (its owners, admins).
  const LIST: Access = { resource: 'stage.app', action: 'update', rule: 'owner', owner: appOwner(db) }; // prettier-ignore
  // Senders cannot sign in: the signature with the workflow's secret is the credential.
  const HOOK: Access = { resource: 'stage.webhook', action: 'invoke', rule: 'public' };
  const base = (request: FastifyRequest) =>
    config.origins.publicUrl ?? originsFor(request, config.origins).platform;

  app.get(
    '/apps/:sid/workflows',
    {
      config: { access: LIST },
      schema: {
        operationId: 'listWorkflows',
        summary: "An app's workflows with their triggers",
        description:
          'Each workflow of the app\'s /app/platform.workflows.json: its description, number of top-level steps, triggers, and `error` when it does not validate (the message names the step path). A webhook trigger comes with its `url` and `secret` (made the first time; deliveries are signed `X-Platform-Signature: sha256=HMAC(secret, "<X-Platform-Timestamp>.<body>")`); `secret` is null when SESSION_SECRET is not set. The app\'s owners and admins.',
        params: Type.Object({ sid: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: responses({ 200: WorkflowListSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const file = await readFile(db, found.session_id, WORKFLOWS_FILE).catch(() => null);
      if (!file) return ok([]);
      let names: string[] = [];
      let raw: Record<string, { description?: unknown }> = {};
      try {
        raw = (JSON.parse(file.content) as { workflows?: typeof raw }).workflows ?? {};
        names = Object.keys(raw);
      } catch (error) {
        throw badRequest(`${WORKFLOWS_FILE} of ${found.name} is not JSON: ${(error as Error).message}`); // prettier-ignore
      }
      const listed = [];
      for (const name of names) {
        const description = typeof raw[name]?.description === 'string' ? (raw[name].description as string) : null; // prettier-ignore
        try {
          const workflow = parseWorkflow(found.name, file.content, name);
          const triggers = [];
          for (const trigger of workflow.triggers ?? []) {
            if ('event' in trigger) {
              // Read from the ledger by a periodic job (domain/workflows/events.ts), unless off.
              triggers.push({ ...trigger, active: config.workflows.eventPollMs > 0 });
              continue;
            }
            if (!('webhook' in trigger)) {
              triggers.push(trigger);
              continue;
            }
            const hook = ctx.auth.sessionSecret ? await webhookOf(ctx, found, name) : null;
            triggers.push({ webhook: { url: hook ? `${base(request)}/api/v1/stage/hooks/${hook.token}` : null, secret: hook?.secret ?? null } }); // prettier-ignore
          }
          listed.push({ name, description, steps: workflow.steps.length, triggers, error: null });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          listed.push({ name, description, steps: 0, triggers: [], error: error.message });
        }
      }
      return ok(listed);
    },
  );

  await app.register(
    named(async (scope) => {
      // The raw bytes are what the sender signed: JSON is parsed once they are verified.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_HOOK_BODY }, (_r, body, done) => done(null, body)); // prettier-ignore
      scope.post(
        '/hooks/:token',
        {
          config: { access: HOOK },
          schema: {
            operationId: 'receiveWorkflowWebhook',
            summary: 'Start a workflow from its webhook trigger',
            description:
              'The URL GET .../workflows lists for a workflow with a `{ "webhook": {} }` trigger. Signed: `X-Platform-Timestamp` (Unix seconds, within 5 minutes) and `X-Platform-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the secret>` (401 otherwise). A JSON object body is the run\'s `input` (another body: `{ body }` as text). 202 with the run id; the run acts as the app.',
            params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }),
            headers: Type.Object({
              'x-platform-timestamp': Type.Optional(Type.String()),
              'x-platform-signature': Type.Optional(Type.String()),
            }),
            response: responses({ 202: RunAcceptedSchema }),
          },
        },
        async (request, reply) => {
          const { token } = request.params as { token: string };
          const headers = request.headers as Record<string, unknown>;
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          // No run unless the signature is good: 401 before anything else is read or started.
          const hook = await verifyDelivery(ctx, token, raw, headers);
          const found = await findAppBySid(db, hook.app_sid);
          if (!found) throw notFound('App', hook.app_sid);
          let input: Record<string, unknown>;
          const text = raw.toString('utf8');
          try {
            const parsed = JSON.parse(text) as unknown;
            input = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { body: parsed }; // prettier-ignore
          } catch {
            input = { body: text };
          }
          const run = await startTriggered(
            ctx,
            ctx.state.workflows,
            found,
            hook.workflow,
            'webhook',
            input,
          );
          reply.header('x-workflow-run', run.id);
          return reply.code(202).send(ok({ runId: run.id, status: run.state }));
        },
      );
    }),
  );
};
