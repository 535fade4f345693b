import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import { SYNC_JOB_STATUSES, type SyncJobRow } from '../database.js';
import { Day } from './items.js';

export const SyncRequestSchema = Type.Object({
  provider: Type.String({ title: 'provider', description: 'An adapter (GET /sync/adapters)' }),
  token: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1000, description: "The provider's access token" }),
  ),
  from: Day('First day (YYYY-MM-DD)'),
  to: Day('Last day (YYYY-MM-DD), inclusive'),
  projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  csv: Type.Optional(
    Type.String({
      maxLength: 10_000_000,
      description:
        'The FOCUS CSV (provider focus), for small files; POST /sync/focus takes any size',
    }),
  ),
});

export const SkippedRowSchema = Type.Object({
  row: Type.Integer({ description: 'Line of the file (the header is line 1)' }),
  reason: Type.String(),
});

export const SyncJobSchema = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  status: Type.Enum([...SYNC_JOB_STATUSES]),
  itemsCreated: Type.Integer(),
  itemsUpdated: Type.Integer(),
  itemsDeleted: Type.Integer({
    description:
      'FOCUS: items of earlier FOCUS imports in the window, of the providers of this file, that this file no longer has and that were removed (0 for other adapters)',
  }),
  error: Nullable(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  projectId: Nullable(Type.String()),
  rowsRead: Type.Integer({ description: 'FOCUS: data rows read so far (header excluded)' }),
  rowsWritten: Type.Integer({ description: 'FOCUS: rows kept for import so far' }),
  rowsSkipped: Type.Integer({
    description: 'FOCUS: rows skipped so far (outside from-to, or unreadable)',
  }),
  skippedRows: Type.Array(SkippedRowSchema, {
    description:
      'A preview: the first 100 skipped rows, by line; rowsSkipped counts them all, GET /sync/jobs/:id/skipped lists them all',
  }),
  createdBy: Nullable(
    Type.String({
      description:
        'Who started it (an email, or key:<name> for a team key); the items it created record them. null: no person (authentication off)',
    }),
  ),
  startedAt: IsoTimestamp,
  completedAt: Nullable(IsoTimestamp),
});
export type SyncJob = Static<typeof SyncJobSchema>;

/** A sync job row as the API shows it. */
export const toSyncJob = (row: SyncJobRow): SyncJob => ({
  ...row,
  itemsCreated: row.items_created,
  itemsUpdated: row.items_updated,
  itemsDeleted: row.items_deleted,
  projectId: row.project_id,
  rowsRead: row.rows_read,
  rowsWritten: row.rows_written,
  rowsSkipped: row.rows_skipped,
  skippedRows: row.skipped,
  createdBy: row.created_by,
  startedAt: row.started_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
});

/** Where an uploaded FOCUS CSV's rows count: POST /sync/focus?from=&to=. */
export const UploadQuery = Type.Object({
  from: Day('First day (YYYY-MM-DD)'),
  to: Day('Last day (YYYY-MM-DD), inclusive'),
});

export const SyncJobListQuery = PagedQuery({
  provider: Type.Optional(Type.String({ description: 'Only the jobs of this adapter' })),
});

export const SkippedRowListQuery = PagedQuery({});

export const SyncJobParams = Type.Object({ id: Type.String({ description: 'Sync job id' }) });

export const AdapterSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  needsToken: Type.Boolean(),
  baseUrl: Nullable(Type.String()),
});
