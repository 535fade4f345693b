import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import { SYNC_JOB_STATUSES } from '../database.js';
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

export const SyncJobSchema = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  status: Type.Enum([...SYNC_JOB_STATUSES]),
  itemsCreated: Type.Integer(),
  itemsUpdated: Type.Integer(),
  error: Nullable(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  projectId: Nullable(Type.String()),
  rowsRead: Type.Integer({ description: 'FOCUS: data rows read so far (header excluded)' }),
  rowsWritten: Type.Integer({ description: 'FOCUS: rows kept for import so far' }),
  rowsSkipped: Type.Integer({
    description: 'FOCUS: rows skipped so far (outside from-to, or unreadable)',
  }),
  skippedRows: Type.Array(
    Type.Object({
      row: Type.Integer({ description: 'Line of the file (the header is line 1)' }),
      reason: Type.String(),
    }),
    { description: 'The first 100 skipped rows, by line; rowsSkipped counts them all' },
  ),
  startedAt: IsoTimestamp,
  completedAt: Nullable(IsoTimestamp),
});
export type SyncJob = Static<typeof SyncJobSchema>;

/** Where an uploaded FOCUS CSV's rows count: POST /sync/focus?from=&to=. */
export const UploadQuery = Type.Object({
  from: Day('First day (YYYY-MM-DD)'),
  to: Day('Last day (YYYY-MM-DD), inclusive'),
});

export const SyncJobListQuery = PagedQuery({
  provider: Type.Optional(Type.String({ description: 'Only the jobs of this adapter' })),
});

export const SyncJobParams = Type.Object({ id: Type.String({ description: 'Sync job id' }) });

export const AdapterSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  needsToken: Type.Boolean(),
  baseUrl: Nullable(Type.String()),
});
