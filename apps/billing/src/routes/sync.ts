import { badRequest, newId, notFound, ok, parseInstant, responses, Type } from '@platform/core';
import { ProviderError, type Adapter, type SyncRequest } from '../adapters/adapter.js';
import { anthropicAdapter } from '../adapters/anthropic.js';
import { focusAdapter } from '../adapters/focus.js';
import { openaiAdapter } from '../adapters/openai.js';
import type { BillingRoutes, SyncJobRow } from '../database.js';
import { upsertProviderItems } from '../repositories/items.js';
import {
  findSyncJob,
  finishSyncJob,
  insertSyncJob,
  listSyncJobs,
} from '../repositories/sync-jobs.js';
import {
  AdapterSchema,
  SyncJobListQuery,
  SyncJobParams,
  SyncJobSchema,
  SyncRequestSchema,
  type SyncJob,
} from '../schemas/sync.js';

const toSyncJob = (row: SyncJobRow): SyncJob => ({
  ...row,
  itemsCreated: row.items_created,
  itemsUpdated: row.items_updated,
  projectId: row.project_id,
  startedAt: row.started_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
});

export const syncRoutes: BillingRoutes = async (app, { db, config }) => {
  /** The sync adapters by name, in the order GET /sync/adapters lists them. */
  const adapters: Record<string, Adapter> = {
    openai: openaiAdapter(config.openaiUrl),
    anthropic: anthropicAdapter(config.anthropicUrl),
    focus: focusAdapter,
  };
  const adapterNames = Object.keys(adapters).join(', ');

  /**
   * Fetches the adapter's items, upserts them by (provider, providerRef) in one transaction and
   * finishes the job: completed with the counts, or failed with a message that never carries the
   * token (a provider's own words, or a pointer to the log for anything else).
   */
  async function runSync(jobId: string, adapter: Adapter, request: SyncRequest) {
    try {
      const items = (await adapter.fetch(request)).map((item) => ({ ...item, id: newId(12) }));
      const counts = await upsertProviderItems(db, adapter.name, items);
      await finishSyncJob(db, jobId, { status: 'completed', ...counts });
    } catch (error) {
      const provider = error instanceof ProviderError;
      if (!provider) app.log.error({ err: error, job: jobId }, 'sync failed');
      const message = provider ? error.message : 'The sync failed; see the service log';
      await finishSyncJob(db, jobId, { status: 'failed', error: message });
    }
  }

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
      const { provider, token, projectId, csv, from, to } = request.body;
      const adapter = adapters[provider];
      if (!adapter) throw badRequest(`Unknown provider ${provider}; adapters: ${adapterNames}`);
      if (adapter.needsToken && !token) throw badRequest(`${provider} needs a token`);
      const range = { from: parseInstant(from, 'from', 'from'), to: parseInstant(to, 'to', 'to') };
      if (range.from > range.to) throw badRequest('from must not be after to');
      const columns = { id: newId(12), provider, from, to, project_id: projectId };
      const job = await insertSyncJob(db, columns);
      const work: Promise<void> = runSync(job.id, adapter, { ...range, token, projectId, csv })
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
    async ({ query }) => ok((await listSyncJobs(db, query.provider, query)).map(toSyncJob)),
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
    // The response schema keeps name, description, needsToken and baseUrl.
    async () => ok(Object.values(adapters)),
  );
};
