import { serviceUnderTest, type ServiceUnderTest } from '@platform/testing';
import type { InjectOptions } from 'fastify';
import { ledger } from '../src/index';
import type { LedgerDatabase, LedgerDb } from '../src/repository';

// JSON bodies, checked by each test.
type Json = any;

export interface Ledger extends ServiceUnderTest {
  get(url: string): Promise<{ status: number; body: Json }>;
  post(url: string, payload?: unknown): Promise<{ status: number; body: Json }>;
  del(url: string): Promise<{ status: number; body: Json }>;
  /** Direct access to the service's tables, as someone with database access has. */
  tables(): LedgerDb;
}

export async function ledgerUnderTest(
  options: Parameters<typeof serviceUnderTest>[1] = {},
): Promise<Ledger> {
  const svc = await serviceUnderTest(ledger, options);
  const call = async (method: InjectOptions['method'], url: string, payload?: unknown) => {
    const res = await svc.app.inject({
      method,
      url: `/api/v1/ledger${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    ...svc,
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload ?? {}),
    del: (url) => call('DELETE', url),
    tables: () => svc.db.schema<LedgerDatabase>('ledger'),
  };
}

/** Days before now, as an ISO timestamp. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** Polls `check` until it returns true (the test's own timeout bounds the wait). */
export async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}
