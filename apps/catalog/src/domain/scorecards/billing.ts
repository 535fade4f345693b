import type { PlatformClient } from '@platform/client';
import type { ScoredRow } from '../../repositories/scorecard-runs.js';
import { ask, guarded, Unreadable, within, type Asking, type Part } from '../overview/peers.js';
import type { Facts, Source } from './rules.js';

// What scorecard rules read of billing: budgets and open anomalies, per service or by whole lists.

/** Billing's lists are read by pages of this many, each within the timeout, at most 20 pages. */
const LIST = 1000;
const MAX_PAGES = 20;

type Budgets = Facts['budgets'];
type Anomalies = Facts['anomalies'];
type Billing = { budgets?: Budgets; anomalies?: Anomalies };
/** Where a page's billing facts come from: one service at a time, or lists read once a run. */
export type BillingOf = (row: ScoredRow, needs: Set<Source>) => Promise<Billing>;

const truncated = (what: string, most: number) =>
  new Unreadable(`The billing service lists more than ${most} ${what}: not all read, so unknown`);

/** One service's budgets and open anomalies (billing's `?service=`), each a call within the timeout. */
export function billingOfService(asking: Asking): BillingOf {
  const one = <T>(
    operation: string,
    what: string,
    list: (client: PlatformClient, signal: AbortSignal) => Promise<T[]>,
  ) =>
    ask(asking, 'billing', operation, async (client, signal) => {
      const items = await list(client, signal);
      if (items.length >= LIST) throw truncated(what, LIST - 1);
      return { items };
    });
  return async (row, needs) => ({
    budgets: needs.has('budgets')
      ? await one('listBudgets', 'budgets', (c, signal) =>
          c.billing.listBudgets({ query: { service: row.id, limit: LIST }, signal }),
        )
      : undefined,
    anomalies: needs.has('anomalies')
      ? await one('listAnomalies', 'open anomalies', (c, signal) =>
          c.billing.listAnomalies({
            query: { service: row.id, status: 'open', limit: LIST },
            signal,
          }),
        )
      : undefined,
  });
}

/** Every page of a billing list, each within the timeout; more than MAX_PAGES: unreadable. */
function readAll<T>(
  asking: Asking,
  operation: string,
  what: string,
  list: (
    client: PlatformClient,
    page: { limit: number; offset: number },
    s: AbortSignal,
  ) => Promise<T[]>,
) {
  return guarded(asking, 'billing', operation, async () => {
    const items: T[] = [];
    for (let offset = 0; ; offset += LIST) {
      if (offset >= MAX_PAGES * LIST) throw truncated(what, MAX_PAGES * LIST - 1);
      const page = await within(asking.timeoutMs, (signal) =>
        list(asking.client, { limit: LIST, offset }, signal),
      );
      items.push(...page);
      if (page.length < LIST) return { items };
    }
  });
}

const same = (a: string | null, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/** Every budget and open anomaly, each list read once a run (when a rule needs it), sliced per service. */
export function billingOfAll(asking: Asking): BillingOf {
  let budgets: ReturnType<typeof readBudgets> | undefined;
  let anomalies: ReturnType<typeof readAnomalies> | undefined;
  const readBudgets = () =>
    readAll(asking, 'listBudgets', 'budgets', (c, query, signal) =>
      c.billing.listBudgets({ query, signal }),
    );
  const readAnomalies = () =>
    readAll(asking, 'listAnomalies', 'open anomalies', (c, page, signal) =>
      c.billing.listAnomalies({ query: { ...page, status: 'open' }, signal }),
    );
  const slice = <T>(all: Part<{ items: T[] }>, match: (row: T) => boolean) =>
    all.available ? { available: true as const, items: all.items.filter(match) } : all;
  return async (row, needs) => ({
    // A budget names the service by id or name (any case), as billing's `listBudgets?service=`.
    budgets: needs.has('budgets')
      ? slice(
          await (budgets ??= readBudgets()),
          (b) => same(b.filter.service, row.id) || same(b.filter.service, row.name),
        )
      : undefined,
    anomalies: needs.has('anomalies')
      ? slice(await (anomalies ??= readAnomalies()), (a) => a.service === row.id)
      : undefined,
  });
}
