import { request } from 'undici';
import { ProviderError } from './adapter.js';

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

/** A page of OpenAI's and Anthropic's cost APIs. */
interface Page<Bucket> {
  data: Bucket[];
  has_more?: boolean;
  next_page?: string | null;
}

/** GETs `first` and follows `next_page` (as `?page=`) until `has_more` is false. */
export async function allPages<Bucket>(
  first: URL,
  headers: Record<string, string>,
  provider: string,
): Promise<Bucket[]> {
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
