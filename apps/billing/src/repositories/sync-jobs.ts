import type { Insertable, Updateable } from '@platform/db';
import type { BillingDb, Page, SyncJobRow, SyncJobsTable } from '../database.js';

export function insertSyncJob(db: BillingDb, job: Omit<Insertable<SyncJobsTable>, 'status'>) {
  return db
    .insertInto('sync_jobs')
    .values({ ...job, status: 'running' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Finishes a job: completed with the counts, or failed with the error; completed_at is now. */
export async function finishSyncJob(
  db: BillingDb,
  id: string,
  outcome: Pick<Updateable<SyncJobsTable>, 'status' | 'items_created' | 'items_updated' | 'error'>,
): Promise<void> {
  await db
    .updateTable('sync_jobs')
    .set({ ...outcome, completed_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A page of sync jobs (of one adapter when `provider` is given), newest first. */
export function listSyncJobs(db: BillingDb, provider: string | undefined, page: Page) {
  let query = db.selectFrom('sync_jobs').selectAll();
  if (provider) query = query.where('provider', '=', provider);
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
