import { cents, type Adapter } from './adapter.js';
import { allPages } from './pages.js';

/** A daily bucket of OpenAI's organization costs API. */
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
