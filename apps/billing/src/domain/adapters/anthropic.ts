import { allPages, cents, type Adapter } from './adapter.js';

/** A daily bucket of Anthropic's cost report. */
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
      const headers = { 'x-api-key': token ?? '', 'anthropic-version': '2023-06-01' };
      const buckets = await allPages<AnthropicBucket>('anthropic', url, headers, {
        starting_at: from.toISOString(),
        ending_at: to.toISOString(),
        bucket_width: '1d',
        limit: '31',
        'group_by[]': ['description', 'workspace_id'],
        'workspace_ids[]': projectId,
      });
      return buckets.flatMap((bucket) =>
        bucket.results.map((result) => ({
          providerRef: `${bucket.starting_at}:${result.workspace_id ?? '-'}:${result.description ?? '-'}`,
          name: result.description ?? 'Anthropic usage',
          ...cents(result.amount, 0),
          currency: result.currency.toUpperCase(),
          date: new Date(bucket.starting_at),
          description: result.workspace_id ? `Workspace ${result.workspace_id}` : null,
        })),
      );
    },
  };
}
