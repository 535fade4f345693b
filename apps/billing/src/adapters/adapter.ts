import Big from 'big.js';

/** One charge as an adapter reports it; upserted by (provider, providerRef). */
export interface SyncedItem {
  providerRef: string;
  name: string;
  /** Integer cents. */
  amount: number;
  currency: string;
  date: Date;
  description: string | null;
}

export interface SyncRequest {
  /** The provider's access token: used for this call only, never stored or logged. */
  token?: string;
  from: Date;
  to: Date;
  projectId?: string;
  /** The FOCUS adapter's CSV. */
  csv?: string;
}

/** A source of costs: a provider's API or an export in the request. */
export interface Adapter {
  name: string;
  description: string;
  needsToken: boolean;
  baseUrl: string | null;
  fetch(request: SyncRequest): Promise<SyncedItem[]>;
}

/** A provider answered with an error; the message never carries the token. */
export class ProviderError extends Error {}

/**
 * Decimal text to integer cents, half away from zero, without binary floating point: `scale` 2
 * for an amount in units (dollars), 0 for one in cents already.
 */
export const cents = (decimal: string, scale: 0 | 2) =>
  Number(
    new Big(decimal)
      .times(scale === 2 ? 100 : 1)
      .round(0, 1)
      .toString(),
  );
