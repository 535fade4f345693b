import type { ProviderRow } from '../database.js';
import { MOCK_MODELS } from './mock.js';
import { baseUrlOf } from './sdk.js';
import { CallFailure } from './failures.js';

/** The model ids a provider's model-list API answers (each type's own wire format). */
export async function fetchModelIds(
  provider: ProviderRow,
  apiKey: string,
  signal: AbortSignal,
): Promise<string[]> {
  if (provider.type === 'mock') return MOCK_MODELS;
  const base = baseUrlOf(provider);
  const headers: Record<string, string> = {};
  if (provider.type === 'anthropic') {
    headers['x-api-key'] = apiKey;
    headers['anthropic-version'] = '2023-06-01';
  } else if (provider.type === 'google') headers['x-goog-api-key'] = apiKey;
  else headers.authorization = `Bearer ${apiKey}`;
  const ids: unknown[] = [];
  // Anthropic pages with `has_more`/`last_id` (`after_id`), Gemini with `nextPageToken`
  // (`pageToken`); OpenAI, OpenRouter and the compatible servers answer one list.
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query =
      provider.type === 'anthropic'
        ? `?limit=1000${cursor ? `&after_id=${encodeURIComponent(cursor)}` : ''}`
        : provider.type === 'google'
          ? `?pageSize=1000${cursor ? `&pageToken=${encodeURIComponent(cursor)}` : ''}`
          : '';
    const res = await fetch(`${base}/models${query}`, { headers, signal });
    if (!res.ok)
      throw new CallFailure(
        502,
        'BAD_GATEWAY',
        `Provider ${provider.name} answered ${res.status} to its model list`,
      );
    let body: ModelList;
    try {
      body = ((await res.json()) ?? {}) as ModelList;
    } catch {
      // Never the text itself: it could be any host's answer.
      throw new CallFailure(
        502,
        'BAD_GATEWAY',
        `Provider ${provider.name} answered its model list with something other than JSON`,
      );
    }
    if (provider.type === 'google') {
      ids.push(...(body.models ?? []).map((m) => m.name?.replace(/^models\//, '')));
      cursor = body.nextPageToken || undefined;
    } else {
      ids.push(...(body.data ?? []).map((m) => m.id));
      cursor = provider.type === 'anthropic' && body.has_more ? body.last_id : undefined;
    }
    if (!cursor) break;
  }
  return [
    ...new Set(ids.filter((id): id is string => typeof id === 'string' && id.length > 0)),
  ].sort();
}

const MAX_PAGES = 50;

interface ModelList {
  data?: Array<{ id?: string }>;
  has_more?: boolean;
  last_id?: string;
  models?: Array<{ name?: string }>;
  nextPageToken?: string;
}
