import { createHash } from 'node:crypto';
import Big from 'big.js';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import type { BillingConfig } from '../config.js';

/** One charge as an adapter reports it; upserted by (provider, providerRef). */
export interface SyncedItem {
  providerRef: string;
  name: string;
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

export interface Adapter {
  name: string;
  description: string;
  needsToken: boolean;
  baseUrl: string | null;
  fetch(request: SyncRequest): Promise<SyncedItem[]>;
}

/** A provider answered with an error; the message never carries the token. */
export class ProviderError extends Error {}

/** Decimal text to integer cents, half away from zero, without binary floating point. */
const cents = (decimal: string, scale: 0 | 2) =>
  Number(
    new Big(decimal)
      .times(scale === 2 ? 100 : 1)
      .round(0, 1)
      .toString(),
  );

const MAX_PAGES = 1000;

async function getJson(url: string, headers: Record<string, string>, provider: string) {
  const response = await request(url, { headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const text = await response.body.text();
  if (response.statusCode === 401 || response.statusCode === 403)
    throw new ProviderError(`${provider} refused the token (HTTP ${response.statusCode})`);
  if (response.statusCode >= 400)
    throw new ProviderError(`${provider} answered HTTP ${response.statusCode}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ProviderError(`${provider} answered something that is not JSON`);
  }
}

interface Page<Bucket> {
  data: Bucket[];
  has_more?: boolean;
  next_page?: string | null;
}

/** Follows `next_page` until `has_more` is false. */
async function allPages<Bucket>(first: URL, headers: Record<string, string>, provider: string) {
  const buckets: Bucket[] = [];
  let url: URL | undefined = first;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const body = (await getJson(url.toString(), headers, provider)) as unknown as Page<Bucket>;
    if (!Array.isArray(body.data))
      throw new ProviderError(`${provider} answered without a data array`);
    buckets.push(...body.data);
    if (!body.has_more || !body.next_page) break;
    url = new URL(first);
    url.searchParams.set('page', body.next_page);
  }
  return buckets;
}

interface OpenAiBucket {
  start_time: number;
  results: Array<{
    amount?: { value: number; currency: string };
    line_item?: string | null;
    project_id?: string | null;
  }>;
}

/** OpenAI's organization costs API: daily buckets, amounts in (float) dollars. */
export function openaiAdapter(baseUrl: string): Adapter {
  return {
    name: 'openai',
    description: 'OpenAI organization costs (GET /v1/organization/costs), grouped by line item',
    needsToken: true,
    baseUrl,
    async fetch({ token, from, to, projectId }) {
      const url = new URL('/v1/organization/costs', baseUrl);
      url.searchParams.set('start_time', String(Math.floor(from.getTime() / 1000)));
      url.searchParams.set('end_time', String(Math.floor(to.getTime() / 1000)));
      url.searchParams.set('bucket_width', '1d');
      url.searchParams.set('limit', '180');
      url.searchParams.append('group_by', 'line_item');
      if (projectId) url.searchParams.append('project_ids', projectId);
      const buckets = await allPages<OpenAiBucket>(
        url,
        { authorization: `Bearer ${token}` },
        'openai',
      );
      return buckets.flatMap((bucket) =>
        bucket.results.flatMap((result) =>
          result.amount
            ? [
                {
                  providerRef: `${bucket.start_time}:${result.project_id ?? '-'}:${result.line_item ?? '-'}`,
                  name: result.line_item ?? 'OpenAI usage',
                  // The JSON number's shortest decimal text, shifted by two places: 0.06 is 6, not 5.999...
                  amount: cents(String(result.amount.value), 2),
                  currency: result.amount.currency.toUpperCase(),
                  date: new Date(bucket.start_time * 1000),
                  description: result.project_id ? `Project ${result.project_id}` : null,
                },
              ]
            : [],
        ),
      );
    },
  };
}

interface AnthropicBucket {
  starting_at: string;
  results: Array<{
    amount: string;
    currency: string;
    description?: string | null;
    workspace_id?: string | null;
    model?: string | null;
  }>;
}

/** Anthropic's cost report: daily buckets, amounts as decimal strings in cents. */
export function anthropicAdapter(baseUrl: string): Adapter {
  return {
    name: 'anthropic',
    description:
      'Anthropic cost report (GET /v1/organizations/cost_report), grouped by description',
    needsToken: true,
    baseUrl,
    async fetch({ token, from, to, projectId }) {
      const url = new URL('/v1/organizations/cost_report', baseUrl);
      url.searchParams.set('starting_at', from.toISOString());
      url.searchParams.set('ending_at', to.toISOString());
      url.searchParams.set('bucket_width', '1d');
      url.searchParams.set('limit', '31');
      url.searchParams.append('group_by[]', 'description');
      url.searchParams.append('group_by[]', 'workspace_id');
      if (projectId) url.searchParams.append('workspace_ids[]', projectId);
      const buckets = await allPages<AnthropicBucket>(
        url,
        { 'x-api-key': token ?? '', 'anthropic-version': '2023-06-01' },
        'anthropic',
      );
      return buckets.flatMap((bucket) =>
        bucket.results.map((result) => ({
          providerRef: `${bucket.starting_at}:${result.workspace_id ?? '-'}:${result.description ?? '-'}`,
          name: result.description ?? 'Anthropic usage',
          amount: cents(result.amount, 0),
          currency: result.currency.toUpperCase(),
          date: new Date(bucket.starting_at),
          description: result.workspace_id ? `Workspace ${result.workspace_id}` : null,
        })),
      );
    },
  };
}

/** A FOCUS (FinOps Open Cost and Usage Specification) CSV export, posted in the request. */
export const focusAdapter: Adapter = {
  name: 'focus',
  description:
    'A FOCUS 1.x CSV sent as `csv` (BilledCost, BillingCurrency, ChargePeriodStart, ...)',
  needsToken: false,
  baseUrl: null,
  async fetch({ csv, from, to }) {
    if (!csv) throw new ProviderError('focus needs the CSV in `csv`');
    let rows: Array<Record<string, string>>;
    try {
      rows = parse(csv, { columns: true, skip_empty_lines: true, trim: true });
    } catch (error) {
      throw new ProviderError(`The FOCUS CSV does not parse: ${(error as Error).message}`);
    }
    for (const column of ['BilledCost', 'BillingCurrency', 'ChargePeriodStart'])
      if (rows.length > 0 && !(column in rows[0]))
        throw new ProviderError(`The FOCUS CSV has no ${column} column`);
    return rows.flatMap((row, i) => {
      const date = new Date(row.ChargePeriodStart);
      if (Number.isNaN(date.getTime()))
        throw new ProviderError(`Row ${i + 2}: ChargePeriodStart is not a date`);
      if (date < from || date > to) return [];
      let amount: number;
      try {
        amount = cents(row.BilledCost, 2);
      } catch {
        throw new ProviderError(`Row ${i + 2}: BilledCost is not a number`);
      }
      const identity = [
        row.ChargePeriodStart,
        row.ProviderName,
        row.ResourceId,
        row.SkuId,
        row.ChargeDescription,
        row.ServiceName,
      ]
        .map((v) => v ?? '')
        .join('|');
      return [
        {
          providerRef: createHash('sha256').update(identity).digest('hex').slice(0, 32),
          name: row.ServiceName || row.ChargeDescription || 'FOCUS charge',
          amount,
          currency: row.BillingCurrency.toUpperCase(),
          date,
          description: row.ChargeDescription || null,
        },
      ];
    });
  },
};

export const adapters = (config: BillingConfig): Record<string, Adapter> => ({
  openai: openaiAdapter(config.openaiUrl),
  anthropic: anthropicAdapter(config.anthropicUrl),
  focus: focusAdapter,
});
