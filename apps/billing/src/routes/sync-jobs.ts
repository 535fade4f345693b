import { notFound, ok, responses, Type, type Access } from '@platform/core';
import type { BillingRoutes } from '../domain/state.js';
import { listSkippedRows } from '../repositories/focus-imports.js';
import { findSyncJob, listSyncJobs } from '../repositories/sync-jobs.js';
import {
  SkippedRowListQuery,
  SkippedRowSchema,
  SyncJobListQuery,
  SyncJobParams,
  SyncJobSchema,
  toSyncJob,
} from '../schemas/sync.js';

/** What syncs did: platform configuration, as the syncs themselves (sync.ts), admins only. */
const JOBS: Access = { resource: 'billing.sync', action: 'read', rule: 'admin' };

/** The sync jobs: their state, counts and skipped rows. */
export const syncJobRoutes: BillingRoutes = async (app, { db }) => {
  app.get(
    '/sync/jobs',
    {
      config: { access: JOBS },
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
      config: { access: JOBS },
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
    '/sync/jobs/:id/skipped',
    {
      config: { access: JOBS },
      schema: {
        operationId: 'listSkippedRows',
        summary: "Every row a sync job skipped, in file order (the job's skippedRows is a preview)",
        params: SyncJobParams,
        querystring: SkippedRowListQuery,
        response: responses({ 200: Type.Array(SkippedRowSchema) }),
      },
    },
    async ({ params, query }) => {
      if (!(await findSyncJob(db, params.id))) throw notFound('Sync job', params.id);
      return ok(await listSkippedRows(db, params.id, query));
    },
  );
};
