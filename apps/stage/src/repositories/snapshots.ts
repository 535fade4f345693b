import { newId, notFound } from '@platform/core';
import { sql } from '@platform/db';
import type { SnapshotRow, StageDb } from '../database/index.js';
import { stored } from './files.js';
import { useSession } from './sessions.js';

/** A snapshot of every current file of the session, at its current version. */
export function insertSnapshot(db: StageDb, sessionId: string, label: string | null) {
  return db.transaction().execute(async (trx) => {
    await useSession(trx, sessionId);
    const snapshot = await trx
      .insertInto('snapshots')
      .values({ id: newId(), session_id: sessionId, label })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('snapshot_files')
      .columns(['snapshot_id', 'path', 'version', 'hash', 'size'])
      .expression(
        trx
          .selectFrom('files')
          .where('session_id', '=', sessionId)
          .where('hash', 'is not', null)
          .select([sql.lit(snapshot.id).as('snapshot_id'), 'path', 'version', 'hash', 'size']),
      )
      .execute();
    return snapshot;
  });
}

export type SnapshotSummary = SnapshotRow & { file_count: number; total_bytes: number };

const summaries = (db: StageDb) =>
  db
    .selectFrom('snapshots as s')
    .selectAll('s')
    .select((eb) => [
      eb
        .selectFrom('snapshot_files as f')
        .whereRef('f.snapshot_id', '=', 's.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('file_count'),
      eb
        .selectFrom('snapshot_files as f')
        .whereRef('f.snapshot_id', '=', 's.id')
        .select(sql<number>`coalesce(sum(f.size), 0)::integer`.as('n'))
        .as('total_bytes'),
    ]);

export async function listSnapshots(
  db: StageDb,
  sessionId: string,
  page: { limit: number; offset: number },
): Promise<SnapshotSummary[]> {
  const rows = await summaries(db)
    .where('s.session_id', '=', sessionId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(numbers);
}

export async function findSnapshot(db: StageDb, sessionId: string, id: string) {
  const row = await summaries(db)
    .where('s.session_id', '=', sessionId)
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Snapshot', id);
  return numbers(row);
}

const numbers = <T extends { file_count: unknown; total_bytes: unknown }>(row: T) => ({
  ...row,
  file_count: Number(row.file_count ?? 0),
  total_bytes: Number(row.total_bytes ?? 0),
});

/** The files of a snapshot with their contents (text or bytes). */
export async function snapshotContents(db: StageDb, snapshotId: string) {
  const rows = await db
    .selectFrom('snapshot_files as f')
    .innerJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'f.hash', 'f.size', 'b.content', 'b.bytes'])
    .where('f.snapshot_id', '=', snapshotId)
    .execute();
  return rows.map(({ path, hash, size, ...blob }) => ({ path, hash, size, content: stored(blob) }));
}
