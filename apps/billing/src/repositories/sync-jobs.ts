import type { BillingDb, SyncJobRow } from '../database.js';

export function insertSyncJob(
  db: BillingDb,
  job: { id: string; provider: string; from: string; to: string; projectId: string | null },
): Promise<SyncJobRow> {
  return db
    .insertInto('sync_jobs')
    .values({
      id: job.id,
      provider: job.provider,
      status: 'running',
      from: job.from,
      to: job.to,
      project_id: job.projectId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function completeSyncJob(
  db: BillingDb,
  id: string,
  counts: { created: number; updated: number },
): Promise<void> {
  await db
    .updateTable('sync_jobs')
    .set({
      status: 'completed',
      items_created: counts.created,
      items_updated: counts.updated,
      completed_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function failSyncJob(db: BillingDb, id: string, error: string): Promise<void> {
  await db
    .updateTable('sync_jobs')
    .set({ status: 'failed', error, completed_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A page of sync jobs, newest first. */
export function listSyncJobs(
  db: BillingDb,
  filter: { provider?: string },
  page: { limit: number; offset: number },
): Promise<SyncJobRow[]> {
  let query = db.selectFrom('sync_jobs').selectAll();
  if (filter.provider) query = query.where('provider', '=', filter.provider);
  return query
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findSyncJob(db: BillingDb, id: string): Promise<SyncJobRow | undefined> {
  return db.selectFrom('sync_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
