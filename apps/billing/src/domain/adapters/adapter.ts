import Big from 'big.js';
import { request } from 'undici';

/** One charge as an adapter reports it; upserted by (provider, providerRef). */
export interface SyncedItem {
  providerRef: string;
  name: string;
  /** Integer cents. */
  amount: number;
  /** The exact amount in cents, as decimal text (amount is it rounded). */
  exactAmount: string;
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
}

/** A source of costs: a provider's API, or an export in the request (FOCUS: no `fetch`). */
export interface Adapter {
  name: string;
  description: string;
  needsToken: boolean;
  baseUrl: string | null;
  fetch?(request: SyncRequest): Promise<SyncedItem[]>;
}

/** A provider answered with an error; the message never carries the token. */
export class ProviderError extends Error {}

/**
 * Decimal text to integer cents, half away from zero, without binary floating point: `scale` 2
 * for an amount in units (dollars), 0 for one in cents already.
 */
export function cents(decimal: string, scale: 0 | 2) {
  const exact = new Big(decimal).times(10 ** scale);
  return { amount: Number(exact.round(0, 1).toString()), exactAmount: exact.toFixed() };
}

const MAX_PAGES = 1000;

async function getJson(url: string, headers: Record<string, string>, provider: string) {
  const response = await request(url, { headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const text = await response.body.text();
  if (response.statusCode === 401 || response.statusCode === 403)
    throw new ProviderError(`${provider} refused the token (HTTP ${response.statusCode})`);
  if (response.statusCode >= 400)
    throw new ProviderError(`${provider} answered HTTP ${response.statusCode}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(`${provider} answered something that is not JSON`);
  }
}

/** A page of OpenAI's and Anthropic's cost APIs. */
interface Page<Bucket> {
  data: Bucket[];
  has_more?: boolean;
  next_page?: string | null;
}

/**
 * GETs `first` with `query` (an array's values in turn, undefined ones left out) and follows
 * `next_page` (as `?page=`) until `has_more` is false: OpenAI's and Anthropic's cost APIs.
 */
export async function allPages<Bucket>(
  provider: string,
  first: URL,
  headers: Record<string, string>,
  query: Record<string, string | string[] | undefined>,
): Promise<Bucket[]> {
  for (const [name, values] of Object.entries(query))
    for (const value of [values ?? []].flat()) first.searchParams.append(name, value);
  const buckets: Bucket[] = [];
  let url = first;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = (await getJson(url.toString(), headers, provider)) as Page<Bucket>;
    if (!Array.isArray(body.data))
      throw new ProviderError(`${provider} answered without a data array`);
    buckets.push(...body.data);
    if (!body.has_more || !body.next_page) break;
    url = new URL(first);
    url.searchParams.set('page', body.next_page);
  }
  return buckets;
}
