import type { Insertable, Updateable } from '@platform/db';
import type { SyncedItem } from '../domain/adapters/adapter.js';
import type { BillingDb, Page, SyncJobRow, SyncJobsTable } from '../database.js';
import { upsertProviderItems } from './items.js';
import { resolveItems } from './owners-resolve.js';

export function insertSyncJob(db: BillingDb, job: Omit<Insertable<SyncJobsTable>, 'status'>) {
  return db
    .insertInto('sync_jobs')
    .values({ ...job, status: 'running' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Finishes a running job: completed with the counts, or failed with the error; completed_at is
 * now. A finished job never changes again (a run interrupted after it finished the job fails
 * nothing).
 */
export async function finishSyncJob(
  db: BillingDb,
  id: string,
  outcome: Pick<
    Updateable<SyncJobsTable>,
    | 'status'
    | 'items_created'
    | 'items_updated'
    | 'items_deleted'
    | 'error'
    | 'rows_read'
    | 'rows_written'
    | 'rows_skipped'
    | 'skipped'
  >,
): Promise<void> {
  await db
    .updateTable('sync_jobs')
    .set({ ...outcome, completed_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Upserts a sync's items and completes its job with the counts, in one transaction, first fenced
 * (`fence` throws when this run no longer holds the durable job). New items are made by the job's
 * creator (`createdBy`).
 */
export function completeSyncJob(
  db: BillingDb,
  job: { id: string; createdBy: string | null },
  provider: string,
  items: Array<SyncedItem & { id: string }>,
  fence: (trx: BillingDb) => Promise<void>,
) {
  const { id } = job;
  return db.transaction().execute(async (trx) => {
    await fence(trx);
    const counts = await upsertProviderItems(trx, provider, items, job.createdBy);
    await resolveItems(trx, { provider, refs: items.map((item) => item.providerRef) });
    await finishSyncJob(trx, id, { status: 'completed', ...counts });
    return counts;
  });
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
