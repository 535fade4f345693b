import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import { ledger } from '../src/index';
import type { LedgerDatabase, LedgerDb } from '../src/database';

export interface Ledger extends ServiceUnderTest, JsonApi {
  /** Direct access to the service's tables, as someone with database access has. */
  tables(): LedgerDb;
}

export async function ledgerUnderTest(
  options: Parameters<typeof serviceUnderTest>[1] = {},
): Promise<Ledger> {
  const svc = await serviceUnderTest(ledger, options);
  return {
    ...svc,
    ...jsonApi(svc.app, ledger.prefix),
    tables: () => svc.db.schema<LedgerDatabase>('ledger'),
  };
}

/** Days before now, as an ISO timestamp. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
