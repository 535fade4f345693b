import {
  badRequest,
  JobFailure,
  newId,
  notFound,
  ok,
  parseInstant,
  responses,
  Type,
} from '@platform/core';
import { ProviderError, type Adapter } from '../adapters/adapter.js';
import { anthropicAdapter } from '../adapters/anthropic.js';
import { focusAdapter } from '../adapters/focus.js';
import { openaiAdapter } from '../adapters/openai.js';
import type { BillingRoutes, SyncJobRow } from '../database.js';
import {
  completeSyncJob,
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

/**
 * A sync as the durable job stores it: never the token, which reaches the run from the request's
 * memory only (`transient`). `from` and `to` are the range's instants.
 */
interface SyncPayload {
  syncJobId: string;
  provider: string;
  from: string;
  to: string;
  projectId?: string;
  csv?: string;
}

export const syncRoutes: BillingRoutes = async (app, { db, config, jobs }) => {
  /** The sync adapters by name, in the order GET /sync/adapters lists them. */
  const adapters: Record<string, Adapter> = {
    openai: openaiAdapter(config.openaiUrl),
    anthropic: anthropicAdapter(config.anthropicUrl),
    focus: focusAdapter,
  };
  const adapterNames = Object.keys(adapters).join(', ');

  /**
   * Fetches the adapter's items, then upserts them by (provider, providerRef) and completes the
   * sync job in one transaction. A provider's error fails the job at once with the provider's
   * words; anything else is logged and fails it with a pointer to the log (a token-less sync is
   * tried again first). No message ever carries the token.
   */
  async function runSync(payload: SyncPayload, token: string | undefined) {
    const { syncJobId, provider, from, to, projectId, csv } = payload;
    // A run that finished the sync job but died before the durable job did: nothing left to do.
    if ((await findSyncJob(db, syncJobId))?.status !== 'running') return null;
    const adapter = adapters[provider];
    try {
      const request = { from: new Date(from), to: new Date(to), token, projectId, csv };
      const items = (await adapter.fetch(request)).map((item) => ({ ...item, id: newId(12) }));
      return await completeSyncJob(db, syncJobId, adapter.name, items);
    } catch (error) {
      if (error instanceof ProviderError) throw new JobFailure(error.message);
      app.log.error({ err: error, job: syncJobId }, 'sync failed');
      throw new Error('The sync failed; see the service log');
    }
  }

  // A sync given a token runs once, in this process: after a crash it fails as interrupted (the
  // token is gone). A FOCUS sync (its CSV is in the payload) is run again, up to 3 times in all.
  const syncs = jobs.define<SyncPayload, unknown, { token: string }>({
    kind: 'sync',
    maxAttempts: 3,
    handler: (payload, { transient }) => runSync(payload, transient?.token),
    onFail: (trx, job, error) =>
      finishSyncJob(trx, job.payload.syncJobId, { status: 'failed', error }),
  });

  app.post(
    '/sync',
    {
      schema: {
        operationId: 'startSync',
        summary: 'Sync costs from a provider',
        description:
          'Starts a job and answers 202 with it (status running); GET /sync/jobs/:id shows it completed or failed. Items are upserted by (provider, providerRef): a repeated sync updates them. The token is used for this call only: never stored or logged. A sync cut short by a restart of the service ends failed (Interrupted: ...) when it used a token; a FOCUS sync is run again.',
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
      const payload: SyncPayload = {
        syncJobId: columns.id,
        provider,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        projectId,
        csv,
      };
      // The sync job and the durable job are stored together, then the sync starts here at once.
      const { record: job } = await syncs.start(payload, {
        transient: adapter.needsToken && token ? { token } : undefined,
        record: (trx) => insertSyncJob(trx, columns),
      });
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
