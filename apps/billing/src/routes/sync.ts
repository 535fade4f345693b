import type { Readable } from 'node:stream';
import {
  ApiError,
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
import { focusAdapter, importFocus } from '../adapters/focus.js';
import { openaiAdapter } from '../adapters/openai.js';
import type { BillingRoutes, SyncJobRow } from '../database.js';
import {
  deleteUpload,
  discardImport,
  readUpload,
  storeUploadChunk,
} from '../repositories/focus-imports.js';
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
  UploadQuery,
  type SyncJob,
} from '../schemas/sync.js';

const toSyncJob = (row: SyncJobRow): SyncJob => ({
  ...row,
  itemsCreated: row.items_created,
  itemsUpdated: row.items_updated,
  projectId: row.project_id,
  rowsRead: row.rows_read,
  rowsWritten: row.rows_written,
  rowsSkipped: row.rows_skipped,
  skippedRows: row.skipped,
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
  /** A FOCUS CSV sent in the JSON body (small files). */
  csv?: string;
  /** A FOCUS CSV uploaded to POST /sync/focus: its bytes are in focus_uploads under syncJobId. */
  upload?: boolean;
}

/** The largest FOCUS upload (bytes), and the size of the pieces it is stored in. */
export const MAX_UPLOAD_BYTES = 2 ** 30;
const UPLOAD_CHUNK_BYTES = 2 * 2 ** 20;

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
  async function runSync(payload: SyncPayload, token: string | undefined, signal: AbortSignal) {
    const { syncJobId, provider, from, to, projectId, csv, upload } = payload;
    // A run that finished the sync job but died before the durable job did: nothing left to do.
    if ((await findSyncJob(db, syncJobId))?.status !== 'running') return null;
    const adapter = adapters[provider];
    const window = { from: new Date(from), to: new Date(to) };
    try {
      if (!adapter.fetch) {
        const source = upload ? readUpload(db, syncJobId) : [csv ?? ''];
        return await importFocus(db, syncJobId, source, window, signal);
      }
      const request = { ...window, token, projectId };
      const items = (await adapter.fetch(request)).map((item) => ({ ...item, id: newId(12) }));
      return await completeSyncJob(db, syncJobId, adapter.name, items);
    } catch (error) {
      if (error instanceof ProviderError) throw new JobFailure(error.message);
      app.log.error({ err: error, job: syncJobId }, 'sync failed');
      throw new Error('The sync failed; see the service log');
    }
  }

  // A sync given a token runs once, in this process: after a crash it fails as interrupted (the
  // token is gone). A FOCUS sync (its CSV is in the payload or in focus_uploads) is run again, up
  // to 3 times in all; what it staged is dropped when it ends either way.
  const syncs = jobs.define<SyncPayload, unknown, { token: string }>({
    kind: 'sync',
    maxAttempts: 3,
    handler: (payload, { transient, signal }) => runSync(payload, transient?.token, signal),
    onFail: async (trx, job, error) => {
      await finishSyncJob(trx, job.payload.syncJobId, { status: 'failed', error });
      if (!adapters[job.payload.provider]?.fetch) await discardImport(trx, job.payload.syncJobId);
    },
  });

  /** Stores the sync job and its durable job together, and starts the sync here at once. */
  async function startSync(payload: SyncPayload, token: string | undefined) {
    const { syncJobId: id, provider, projectId } = payload;
    const columns = { id, provider, from: payload.from.slice(0, 10), to: payload.to.slice(0, 10) };
    const { record } = await syncs.start(payload, {
      transient: token ? { token } : undefined,
      record: (trx) => insertSyncJob(trx, { ...columns, project_id: projectId }),
    });
    return toSyncJob(record);
  }

  const rangeOf = (from: string, to: string) => {
    const range = { from: parseInstant(from, 'from', 'from'), to: parseInstant(to, 'to', 'to') };
    if (range.from > range.to) throw badRequest('from must not be after to');
    return { from: range.from.toISOString(), to: range.to.toISOString() };
  };

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
      if (!adapter.fetch && !csv)
        throw badRequest(
          `${provider} needs the CSV in csv, or uploaded as text/csv to /sync/focus`,
        );
      const payload = { syncJobId: newId(12), provider, ...rangeOf(from, to), projectId, csv };
      const job = await startSync(payload, adapter.needsToken ? token : undefined);
      return reply.code(202).send(ok(job));
    },
  );

  // A FOCUS CSV as the request body, streamed: its bytes go to focus_uploads as they arrive (a
  // chunk in memory at a time), then the sync job reads them. The text/csv parser hands the body
  // over as a stream, in this route's own scope only; other routes still take JSON only.
  await app.register(async (uploads) => {
    uploads.addContentTypeParser('text/csv', (_request, body, done) => done(null, body));
    uploads.post(
      '/sync/focus',
      {
        schema: {
          operationId: 'uploadFocus',
          summary: 'Sync costs from an uploaded FOCUS CSV',
          description: `The body is the CSV itself (content-type text/csv, up to ${MAX_UPLOAD_BYTES} bytes), read as it arrives. Answers 202 with the sync job, as POST /sync does; GET /sync/jobs/:id shows rowsRead, rowsWritten and rowsSkipped as the job goes.`,
          querystring: UploadQuery,
          response: responses({ 202: SyncJobSchema }),
        },
      },
      async (request, reply) => {
        const type = request.headers['content-type'] ?? 'none';
        if (!/^text\/csv\s*(;|$)/i.test(type))
          throw new ApiError(
            'UNSUPPORTED_MEDIA_TYPE',
            `Unsupported content type: ${type}; send the FOCUS CSV as text/csv`,
          );
        const { from, to } = request.query as { from: string; to: string };
        const payload = { syncJobId: newId(12), provider: 'focus', ...rangeOf(from, to) };
        await receiveUpload(request.body as Readable, payload.syncJobId);
        const job = await startSync({ ...payload, upload: true }, undefined);
        return reply.code(202).send(ok(job));
      },
    );
  });

  /** Stores a request body in focus_uploads as it arrives; removes what it stored on failure. */
  async function receiveUpload(body: Readable, uploadId: string) {
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingSize = 0;
    const store = async () => {
      await storeUploadChunk(db, uploadId, seq++, Buffer.concat(pending));
      pending = [];
      pendingSize = 0;
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_UPLOAD_BYTES)
          throw new ApiError(
            'PAYLOAD_TOO_LARGE',
            `Request body exceeds the limit of ${MAX_UPLOAD_BYTES} bytes`,
          );
        pending.push(chunk);
        pendingSize += chunk.length;
        if (pendingSize >= UPLOAD_CHUNK_BYTES) {
          await store();
          await new Promise((resolve) => setImmediate(resolve)); // see importFocus
        }
      }
      if (pendingSize > 0) await store();
      if (size === 0) throw badRequest('The request body is empty; send the FOCUS CSV as text/csv');
    } catch (error) {
      await deleteUpload(db, uploadId);
      throw error;
    }
  }

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
