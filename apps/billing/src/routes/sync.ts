import {
  ApiError,
  badRequest,
  creatorOf,
  JobFailure,
  newId,
  type JobContext,
  ok,
  parseInstant,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { ProviderError, type Adapter } from '../adapters/adapter.js';
import { anthropicAdapter } from '../adapters/anthropic.js';
import { focusAdapter, stageFocus } from '../adapters/focus.js';
import { receiveUpload, UPLOAD_CUT_SHORT, type Staging } from '../adapters/focus-upload.js';
import { openaiAdapter } from '../adapters/openai.js';
import type { BillingDb, BillingRoutes } from '../database.js';
import { clearStagedRows, discardImport, mergeStagedRows } from '../repositories/focus-imports.js';
import {
  completeSyncJob,
  findSyncJob,
  finishSyncJob,
  insertSyncJob,
} from '../repositories/sync-jobs.js';
import {
  AdapterSchema,
  SyncJobSchema,
  SyncRequestSchema,
  toSyncJob,
  UploadQuery,
} from '../schemas/sync.js';

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
  /** A FOCUS CSV uploaded to POST /sync/focus: the request stages its rows, the job merges. */
  upload?: boolean;
  /** Who started it (an email, `key:<name>`): the items it creates are made by them. */
  createdBy?: string | null;
}

// Syncs and adapters are platform configuration: admins only (keys: the admin scope), uploads too
// (a FOCUS file is an adapter's input). Sync jobs are read in sync-jobs.ts, admins only as well.
const START: Access = { resource: 'billing.sync', action: 'create', rule: 'admin' };
const UPLOAD: Access = { resource: 'billing.sync', action: 'ingest', rule: 'admin' };
const ADAPTERS: Access = { resource: 'billing.adapter', action: 'read', rule: 'admin' };

export const syncRoutes: BillingRoutes = async (app, { db, config, jobs }) => {
  /** The sync adapters by name, in the order GET /sync/adapters lists them. */
  const adapters: Record<string, Adapter> = {
    openai: openaiAdapter(config.openaiUrl),
    anthropic: anthropicAdapter(config.anthropicUrl),
    focus: focusAdapter,
  };
  const adapterNames = Object.keys(adapters).join(', ');

  /** The uploads this process receives, by sync job: settled once all rows are staged. */
  const receiving = new Map<string, Promise<void>>();

  /**
   * Fetches the adapter's items, then upserts them by (provider, providerRef) and completes the
   * sync job in one fenced transaction. A FOCUS CSV is staged first (an upload is staged by its
   * request), then merged. A provider's error fails the job at once with the provider's words;
   * anything else is logged and fails it with a pointer to the log (a token-less sync is tried
   * again first). No message ever carries the token.
   */
  async function runSync(
    payload: SyncPayload,
    token: string | undefined,
    ctx: JobContext<unknown>,
  ) {
    const { syncJobId, provider, from, to, projectId, csv, upload } = payload;
    const fence = (trx: BillingDb) => ctx.fence(trx);
    const staging = receiving.get(syncJobId);
    // A run that finished the sync job but died before the durable job did: nothing left to do.
    if ((await findSyncJob(db, syncJobId))?.status !== 'running') return null;
    const job = { id: syncJobId, createdBy: payload.createdBy ?? null };
    const adapter = adapters[provider];
    const window = { from: new Date(from), to: new Date(to) };
    try {
      if (upload) {
        // Received here: wait for the last row. Elsewhere (a process that died): it was all
        // staged (the upload answered 202), or it never will be.
        if (staging) await staging;
        else if (!(await findSyncJob(db, syncJobId))?.staged_at)
          throw new JobFailure(UPLOAD_CUT_SHORT);
        return await mergeStagedRows(db, job, window, fence);
      }
      if (!adapter.fetch) {
        await clearStagedRows(db, syncJobId);
        await stageFocus(db, syncJobId, [csv ?? ''], window, ctx.signal);
        return await mergeStagedRows(db, job, window, fence);
      }
      const request = { ...window, token, projectId };
      const items = (await adapter.fetch(request)).map((item) => ({ ...item, id: newId(12) }));
      return await completeSyncJob(db, job, adapter.name, items, fence);
    } catch (error) {
      if (error instanceof ProviderError || error instanceof JobFailure)
        throw new JobFailure(error.message);
      app.log.error({ err: error, job: syncJobId }, 'sync failed');
      throw new Error('The sync failed; see the service log');
    }
  }

  // A sync given a token runs once, in this process: after a crash it fails as interrupted (the
  // token is gone). A FOCUS sync (its CSV in the payload, or an upload all staged) is run again,
  // up to 3 times in all; what it staged is dropped when it ends either way.
  const syncs = jobs.define<SyncPayload, unknown, { token: string }>({
    kind: 'sync',
    maxAttempts: 3,
    handler: (payload, ctx) => runSync(payload, ctx.transient?.token, ctx),
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
      record: (trx) =>
        insertSyncJob(trx, { ...columns, project_id: projectId, created_by: payload.createdBy }),
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
      config: { access: START },
      schema: {
        operationId: 'startSync',
        summary: 'Sync costs from a provider',
        description:
          'Starts a job and answers 202 with it (status running); GET /sync/jobs/:id shows it completed or failed. Items are upserted by (provider, providerRef): a repeated sync updates them. A FOCUS import is the truth for its window: items that earlier FOCUS imports made in from-to, for the providers the file has rows of (and the provider focus), and that the file no longer has are removed (itemsDeleted); items made by hand or by other adapters never are. The token is used for this call only: never stored or logged. A sync cut short by a restart of the service ends failed (Interrupted: ...) when it used a token; a FOCUS sync is run again.',
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
      const createdBy = creatorOf(request.identity);
      const payload = { syncJobId: newId(12), provider, ...rangeOf(from, to), projectId, csv };
      const job = await startSync(
        { ...payload, createdBy },
        adapter.needsToken ? token : undefined,
      );
      return reply.code(202).send(ok(job));
    },
  );

  // A FOCUS CSV as the request body, parsed as it arrives: the sync job is made at the first
  // byte, the rows are staged in batches (one in memory at a time), and 202 answers once all are
  // staged; the durable job then merges them. The text/csv parser hands the body over as a
  // stream, in this route's own scope only; other routes still take JSON only.
  await app.register(async (uploads) => {
    uploads.addContentTypeParser('text/csv', (_request, body, done) => done(null, body));
    uploads.post(
      '/sync/focus',
      {
        config: { access: UPLOAD },
        schema: {
          operationId: 'uploadFocus',
          summary: 'Sync costs from an uploaded FOCUS CSV',
          description: `The body is the CSV itself (content-type text/csv, up to BILLING_FOCUS_MAX_BYTES bytes, 1 GiB by default), parsed as it arrives: GET /sync/jobs/:id shows rowsRead, rowsWritten and rowsSkipped while it uploads. Answers 202 with the sync job once every row is staged; the job then merges them into items and completes. The file is the truth for its window: items that earlier FOCUS imports made in from-to, for the providers this file has rows of (and the provider focus), and that this file no longer has are removed (itemsDeleted); items made by hand or by other adapters never are. An upload cut short, too large or not a FOCUS CSV fails its sync job and leaves no row behind.`,
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
        const createdBy = creatorOf(request.identity);
        const payload = {
          syncJobId: newId(12),
          provider: 'focus',
          ...rangeOf(from, to),
          createdBy,
        };
        const window = { from: new Date(payload.from), to: new Date(payload.to) };
        const staging: Staging = {
          start: () => startSync({ ...payload, upload: true }, undefined),
          stage: (body) => stageFocus(db, payload.syncJobId, body, window),
          track: (staged) => receiving.set(payload.syncJobId, staged),
          untrack: () => receiving.delete(payload.syncJobId),
          log: request.log,
        };
        const row = await receiveUpload(
          db,
          request.raw,
          payload.syncJobId,
          config.focusMaxBytes,
          staging,
        ).catch((error: unknown) => {
          // Answered before the whole body arrived (413, 400): the connection ends with it.
          if (!request.raw.complete) reply.header('connection', 'close');
          throw error;
        });
        return reply.code(202).send(ok(toSyncJob(row)));
      },
    );
  });

  app.get(
    '/sync/adapters',
    {
      config: { access: ADAPTERS },
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
