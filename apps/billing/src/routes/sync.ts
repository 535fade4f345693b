import {
  badRequest,
  newId,
  notFound,
  ok,
  parseInstant,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import { adapters as makeAdapters } from '../adapters/index.js';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase } from '../database.js';
import { toSyncJob } from '../mappers.js';
import { findSyncJob, insertSyncJob, listSyncJobs } from '../repositories/sync-jobs.js';
import { runSync } from '../run-sync.js';
import {
  AdapterSchema,
  SyncJobListQuery,
  SyncJobParams,
  SyncJobSchema,
  SyncRequestSchema,
} from '../schemas/sync.js';

export const syncRoutes: ServiceRoutes<BillingDatabase, BillingConfig> = async (
  app,
  { db, config },
) => {
  const adapters = makeAdapters(config);
  const running = new Set<Promise<void>>();
  // Closing waits for syncs under way, so that none writes to a closed database.
  app.addHook('onClose', async () => {
    await Promise.all(running);
  });

  app.post(
    '/sync',
    {
      schema: {
        operationId: 'startSync',
        summary: 'Sync costs from a provider',
        description:
          'Starts a job and answers 202 with it (status running); GET /sync/jobs/:id shows it completed or failed. Items are upserted by (provider, providerRef): a repeated sync updates them. The token is used for this call only: never stored or logged.',
        body: SyncRequestSchema,
        response: responses({ 202: SyncJobSchema }),
      },
    },
    async (request, reply) => {
      const { provider, token, projectId, csv } = request.body;
      const adapter = adapters[provider];
      if (!adapter)
        throw badRequest(
          `Unknown provider ${provider}; adapters: ${Object.keys(adapters).join(', ')}`,
        );
      if (adapter.needsToken && !token) throw badRequest(`${provider} needs a token`);
      const from = parseInstant(request.body.from, 'from', 'from');
      const to = parseInstant(request.body.to, 'to', 'to');
      if (from > to) throw badRequest('from must not be after to');
      const job = await insertSyncJob(db, {
        id: newId(12),
        provider,
        from: request.body.from,
        to: request.body.to,
        projectId: projectId ?? null,
      });
      const work: Promise<void> = runSync(db, app.log, job.id, adapter, {
        token,
        from,
        to,
        projectId,
        csv,
      })
        .catch((error: unknown) =>
          app.log.error({ err: error, job: job.id }, 'sync job could not be finished'),
        )
        .finally(() => running.delete(work));
      running.add(work);
      return reply.code(202).send(ok(toSyncJob(job)));
    },
  );

  app.get(
    '/sync/jobs',
    {
      schema: {
        operationId: 'listSyncJobs',
        summary: 'List sync jobs, newest first',
        querystring: SyncJobListQuery,
        response: responses({ 200: Type.Array(SyncJobSchema) }),
      },
    },
    async (request) => {
      const { provider, limit, offset } = request.query;
      const rows = await listSyncJobs(db, { provider }, { limit, offset });
      return ok(rows.map(toSyncJob));
    },
  );

  app.get(
    '/sync/jobs/:id',
    {
      schema: {
        operationId: 'getSyncJob',
        summary: 'Get a sync job',
        params: SyncJobParams,
        response: responses({ 200: SyncJobSchema }),
      },
    },
    async (request) => {
      const row = await findSyncJob(db, request.params.id);
      if (!row) throw notFound('Sync job', request.params.id);
      return ok(toSyncJob(row));
    },
  );

  app.get(
    '/sync/adapters',
    {
      schema: {
        operationId: 'listSyncAdapters',
        summary: 'The registered sync adapters',
        response: responses({ 200: Type.Array(AdapterSchema) }),
      },
    },
    async () =>
      ok(
        Object.values(adapters).map(({ name, description, needsToken, baseUrl }) => ({
          name,
          description,
          needsToken,
          baseUrl,
        })),
      ),
  );
};
