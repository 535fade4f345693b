import {
  ApiError,
  badRequest,
  creatorOf,
  named,
  newId,
  ok,
  parseInstant,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { stageFocus } from '../domain/adapters/focus.js';
import { receiveUpload, type Staging } from '../domain/adapters/focus-upload.js';
import type { BillingRoutes } from '../domain/state.js';
import {
  AdapterSchema,
  SyncJobSchema,
  SyncRequestSchema,
  toSyncJob,
  UploadQuery,
} from '../schemas/sync.js';

// Syncs and adapters are platform configuration: admins only (keys: the admin scope), uploads too
// (a FOCUS file is an adapter's input). Sync jobs are read in sync-jobs.ts, admins only as well.
const START: Access = { resource: 'billing.sync', action: 'create', rule: 'admin' };
const UPLOAD: Access = { resource: 'billing.sync', action: 'ingest', rule: 'admin' };
const ADAPTERS: Access = { resource: 'billing.adapter', action: 'read', rule: 'admin' };

export const syncRoutes: BillingRoutes = async (app, { db, config, state }) => {
  const { adapters, adapterNames, startSync, track, untrack } = state.sync;

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
      const row = await startSync(
        { ...payload, createdBy },
        adapter.needsToken ? token : undefined,
      );
      return reply.code(202).send(ok(toSyncJob(row)));
    },
  );

  // A FOCUS CSV as the request body, parsed as it arrives: the sync job is made at the first
  // byte, the rows are staged in batches (one in memory at a time), and 202 answers once all are
  // staged; the durable job then merges them. The text/csv parser hands the body over as a
  // stream, in this route's own scope only; other routes still take JSON only.
  await app.register(
    named(async (uploads) => {
      uploads.addContentTypeParser('text/csv', (_request, body, done) => done(null, body));
      uploads.post(
        '/sync/focus',
        {
          config: { access: UPLOAD, audit: true },
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
            stage: (body) =>
              stageFocus(db, payload.syncJobId, body, { ...window, currency: config.currency }),
            track: (staged) => track(payload.syncJobId, staged),
            untrack: () => untrack(payload.syncJobId),
            answered: new Promise((resolve) => {
              reply.raw.once('finish', resolve).once('close', resolve);
            }),
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
    }),
  );

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
