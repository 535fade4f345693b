import { allPages, cents, type Adapter, type SyncedItem } from './adapter.js';

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
      const headers = { authorization: `Bearer ${token}` };
      const buckets = await allPages<OpenAiBucket>('openai', url, headers, {
        start_time: String(Math.floor(from.getTime() / 1000)),
        end_time: String(Math.floor(to.getTime() / 1000)),
        bucket_width: '1d',
        limit: '180',
        group_by: 'line_item',
        project_ids: projectId,
      });
      const items: SyncedItem[] = [];
      for (const { start_time, results } of buckets)
        for (const { amount, line_item, project_id } of results)
          if (amount)
            items.push({
              providerRef: `${start_time}:${project_id ?? '-'}:${line_item ?? '-'}`,
              name: line_item ?? 'OpenAI usage',
              // The JSON number's shortest decimal text, shifted by two places: 0.06 is 6, not 5.999...
              ...cents(String(amount.value), 2),
              currency: amount.currency.toUpperCase(),
              date: new Date(start_time * 1000),
              description: project_id ? `Project ${project_id}` : null,
            });
      return items;
    },
  };
}
