import { endpoint, type Transport } from './transport.js';

export interface BillingItem {
  id: string;
  name: string;
  /** Integer cents. */
  amount: number;
  currency: string;
  provider: string | null;
  providerRef: string | null;
  tags: string[];
  description: string | null;
  recurring: boolean;
  period: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly' | null;
  date: string;
  category: string | null;
  service: string | null;
  stageApp: string | null;
  author: string | null;
  createdAt: string;
  updatedAt: string;
}

export type BillingItemInput = Partial<Omit<BillingItem, 'id' | 'createdAt' | 'updatedAt'>> & {
  name: string;
  amount: number;
};

export type BillingFilter = {
  category?: string;
  provider?: string;
  service?: string;
  stageApp?: string;
  author?: string;
  recurring?: boolean;
  /** Comma-separated: items with all of them. */
  tags?: string;
  from?: string;
  to?: string;
};

export interface SyncJob {
  id: string;
  provider: string;
  status: 'running' | 'completed' | 'failed';
  itemsCreated: number;
  itemsUpdated: number;
  error: string | null;
  from: string | null;
  to: string | null;
  projectId: string | null;
  startedAt: string;
  completedAt: string | null;
}

type Page = { limit?: number; offset?: number };

/** Billing (spec 4.6). */
export class BillingClient {
  private readonly send;

  constructor(transport: Transport) {
    this.send = endpoint(transport, '/api/v1/billing');
  }

  listItems(filter: BillingFilter & Page = {}) {
    return this.send<BillingItem[]>('GET', ['items'], { query: filter });
  }
  createItem(item: BillingItemInput) {
    return this.send<BillingItem>('POST', ['items'], { body: item });
  }
  getItem(id: string) {
    return this.send<BillingItem>('GET', ['items', id]);
  }
  updateItem(id: string, changes: Partial<BillingItemInput>) {
    return this.send<BillingItem>('PUT', ['items', id], { body: changes });
  }
  deleteItem(id: string) {
    return this.send<BillingItem>('DELETE', ['items', id]);
  }
  itemByProviderRef(provider: string, providerRef: string) {
    return this.send<BillingItem>('GET', ['items', 'by-provider-ref'], {
      query: { provider, providerRef },
    });
  }
  summary(filter: BillingFilter & { currency?: string } = {}) {
    return this.send<{
      totalAmount: number;
      itemCount: number;
      currency: string;
      from: string | null;
      to: string | null;
    }>('GET', ['reports', 'summary'], { query: filter });
  }
  breakdown(
    by: 'provider' | 'category' | 'service' | 'recurring' | 'tag',
    filter: BillingFilter & { currency?: string } = {},
  ) {
    return this.send<Array<{ key: string; amount: number; count: number; percentage: number }>>(
      'GET',
      ['reports', 'breakdown'],
      {
        query: { ...filter, by },
      },
    );
  }
  trend(interval: 'day' | 'week' | 'month', filter: BillingFilter & { currency?: string } = {}) {
    return this.send<Array<{ date: string; amount: number; count: number }>>(
      'GET',
      ['reports', 'trend'],
      {
        query: { ...filter, interval },
      },
    );
  }
  sync(request: {
    provider: string;
    token?: string;
    from: string;
    to: string;
    projectId?: string;
    csv?: string;
  }) {
    return this.send<SyncJob>('POST', ['sync'], { body: request });
  }
  syncJob(id: string) {
    return this.send<SyncJob>('GET', ['sync', 'jobs', id]);
  }
  status() {
    return this.send<Record<string, unknown>>('GET', ['status']);
  }
}
