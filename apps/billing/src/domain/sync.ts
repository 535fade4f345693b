import { JobFailure, newId, type JobContext, type ServiceContext } from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase, BillingDb } from '../database.js';
import { clearStagedRows, discardImport, mergeStagedRows } from '../repositories/focus-imports.js';
import { lockResolution } from '../repositories/owners-resolve.js';
import {
  completeSyncJob,
  findSyncJob,
  finishSyncJob,
  insertSyncJob,
} from '../repositories/sync-jobs.js';
import { ProviderError, type Adapter } from './adapters/adapter.js';
import { anthropicAdapter } from './adapters/anthropic.js';
import { focusAdapter, stageFocus } from './adapters/focus.js';
import { UPLOAD_CUT_SHORT } from './adapters/focus-upload.js';
import { openaiAdapter } from './adapters/openai.js';

/**
 * A sync as the durable job stores it: never the token, which reaches the run from the request's
 * memory only (`transient`). `from` and `to` are the range's instants.
 */
export interface SyncPayload {
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

/**
 * The syncs of one instance: its adapters, the durable `sync` job kind, and the uploads it is
 * receiving. Made once per instance by the service's `setup`.
 */
export function syncRunner({
  db,
  config,
  jobs,
  log,
}: ServiceContext<BillingDatabase, BillingConfig>) {
  /** The sync adapters by name, in the order GET /sync/adapters lists them. */
  const adapters: Record<string, Adapter> = {
    openai: openaiAdapter(config.openaiUrl),
    anthropic: anthropicAdapter(config.anthropicUrl),
    focus: focusAdapter,
  };

  /** The uploads this instance receives, by sync job: settled once all rows are staged. */
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
    // First in the transaction that writes the items (and resolves them to catalog services): the
    // resolution lock (repositories/owners-resolve.ts), taken before any item row, then the fence.
    const fence = async (trx: BillingDb) => {
      await lockResolution(trx);
      await ctx.fence(trx);
    };
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
        const rows = { ...window, currency: config.currency };
        await stageFocus(db, syncJobId, [csv ?? ''], rows, ctx.signal);
        return await mergeStagedRows(db, job, window, fence);
      }
      const request = { ...window, token, projectId };
      const items = (await adapter.fetch(request)).map((item) => ({ ...item, id: newId(12) }));
      return await completeSyncJob(db, job, adapter.name, items, fence);
    } catch (error) {
      if (error instanceof ProviderError || error instanceof JobFailure)
        throw new JobFailure(error.message);
      log.error({ err: error, job: syncJobId }, 'sync failed');
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
    return record;
  }

  return {
    adapters,
    /** The adapters' names, for messages. */
    adapterNames: Object.keys(adapters).join(', '),
    startSync,
    /** An upload's rows are being staged here: its sync's run waits for `staged`. */
    track(syncJobId: string, staged: Promise<void>) {
      receiving.set(syncJobId, staged);
    },
    untrack(syncJobId: string) {
      receiving.delete(syncJobId);
    },
  };
}

export type SyncRunner = ReturnType<typeof syncRunner>;
