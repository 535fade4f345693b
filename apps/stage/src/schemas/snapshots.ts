import { Type } from '@platform/core';
import type { SnapshotSummary } from '../repositories/snapshots.js';
import { EpochMs, ms, SessionParams } from './sessions.js';

export const SnapshotSchema = Type.Object({
  id: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  createdAt: EpochMs('When it was taken'),
  fileCount: Type.Integer(),
  totalBytes: Type.Integer(),
});
export const SnapshotBody = Type.Optional(
  Type.Object({ label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
);
export const SnapshotParams = Type.Object({
  id: SessionParams.properties.id,
  snapshotId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const RestoredSchema = Type.Object({
  snapshot: SnapshotSchema,
  written: Type.Integer({ description: 'Files written back (each as a new version)' }),
  deleted: Type.Integer({ description: 'Files the snapshot did not have, deleted' }),
});

export const toSnapshot = (row: SnapshotSummary) => ({
  id: row.id,
  label: row.label,
  createdAt: ms(row.created_at),
  fileCount: row.file_count,
  totalBytes: row.total_bytes,
});
