import { newId } from '@platform/core';
import { ProviderError, type Adapter, type SyncRequest } from './adapters/index.js';
import type { BillingDb } from './database.js';
import { upsertProviderItems } from './repositories/items.js';
import { completeSyncJob, failSyncJob } from './repositories/sync-jobs.js';

/**
 * Fetches the adapter's items, upserts them by (provider, providerRef) in one transaction and
 * finishes the job: completed with the counts, or failed with a message that never carries the
 * token (a provider's own words, or a pointer to the log for anything else).
 */
export async function runSync(
  db: BillingDb,
  log: { error(details: object, message: string): void },
  jobId: string,
  adapter: Adapter,
  request: SyncRequest,
): Promise<void> {
  try {
    const items = await adapter.fetch(request);
    const counts = await upsertProviderItems(
      db,
      adapter.name,
      items.map((item) => ({ ...item, id: newId(12) })),
    );
    await completeSyncJob(db, jobId, counts);
  } catch (error) {
    const provider = error instanceof ProviderError;
    if (!provider) log.error({ err: error, job: jobId }, 'sync failed');
    const message = provider ? error.message : 'The sync failed; see the service log';
    await failSyncJob(db, jobId, message);
  }
}
