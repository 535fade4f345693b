import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '@platform/core';
import type { InferenceDb, KeyLimitsRow } from '../database.js';
import { readEntry, writeEntry } from '../repositories/cache.js';
import type { Call } from './call.js';
import type { Route } from './routing.js';

/** The header that asks for the cache (`ttl=<seconds>`) and that answers `hit` or `miss`. */
export const CACHE_HEADER = 'x-platform-cache';

const SECONDS = /^\d{1,9}$/;

/**
 * How long the request asks its answer to be cached, in seconds: `x-platform-cache: ttl=N`, else
 * `Cache-Control: max-age=N` (`no-store` or `no-cache`: 0, the key's default ttl included);
 * undefined when it says nothing. A malformed value is a 400 naming the header.
 */
export function requestedTtl(request: FastifyRequest): number | undefined {
  const own = request.headers[CACHE_HEADER];
  if (own !== undefined) {
    const match = typeof own === 'string' ? /^\s*ttl\s*=\s*(\S+)\s*$/i.exec(own) : null;
    if (!match || !SECONDS.test(match[1]))
      throw badRequest(
        `${CACHE_HEADER} must be ttl=<seconds> (a whole number, 0 for no caching), got ${JSON.stringify(String(own)).slice(0, 60)}`,
      );
    return Number(match[1]);
  }
  const control = request.headers['cache-control'];
  if (typeof control !== 'string') return undefined;
  let ttl: number | undefined;
  for (const directive of control.split(',').map((d) => d.trim().toLowerCase())) {
    if (directive === 'no-store' || directive === 'no-cache') return 0;
    if (directive.startsWith('max-age')) {
      const value = directive.split('=')[1]?.trim() ?? '';
      if (!SECONDS.test(value))
        throw badRequest(
          `Cache-Control max-age must be a whole number of seconds, got ${JSON.stringify(directive).slice(0, 60)}`,
        );
      ttl = Number(value);
    }
  }
  return ttl;
}

/** What is kept of a result: never the provider's raw exchange (`request`, `response`). */
function stored(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { request: _request, response: _response, ...kept } = value as Record<string, unknown>;
  return kept;
}

/** The exact-match response cache, in the database, entries expiring after their ttl. */
export class ResponseCache {
  constructor(
    private readonly db: InferenceDb,
    private readonly log: FastifyBaseLogger,
    readonly maxTtlS: number,
  ) {}

  get(key: string) {
    return readEntry(this.db, key).catch((error: unknown) => {
      this.log.error({ err: error }, 'inference: the response cache could not be read');
      return undefined;
    });
  }

  async put(key: string, value: unknown, ttlS: number) {
    await writeEntry(this.db, key, stored(value), Math.min(ttlS, this.maxTtlS)).catch(
      (error: unknown) =>
        this.log.error({ err: error }, 'inference: the response cache could not be written'),
    );
  }
}

/**
 * A non-streamed result through the response cache, for any route (the native /chat, the
 * compatible ones). The call is admitted first (a key's limits apply to hits too). When the
 * request asks for caching (see requestedTtl) or its key has a default ttl, an entry of the same
 * caller, kind, models and `input` that has not expired is the answer (`x-platform-cache: hit`;
 * the call is then logged as cached, with no cost); else `produce` runs and its result is kept
 * (`miss`). `produce`'s result must be JSON; its `request` and `response` fields are not kept.
 * Streams are never cached.
 */
export async function cachedResult<T>(
  state: { cache: ResponseCache },
  call: Call,
  request: FastifyRequest,
  reply: FastifyReply,
  routes: Route[],
  input: unknown,
  produce: () => Promise<T>,
): Promise<T> {
  const asked = requestedTtl(request);
  const limits = (await call.admit(routes)) as KeyLimitsRow | undefined;
  const ttl = asked ?? limits?.cache_ttl_s ?? 0;
  if (ttl <= 0) return produce();
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        call.createdBy ?? '',
        call.kind,
        [...new Set(routes.map((r) => r.requested))],
        input ?? null,
      ]),
    )
    .digest('hex');
  const hit = await state.cache.get(key);
  if (hit !== undefined) {
    call.cached = true;
    call.route = routes[0];
    reply.header(CACHE_HEADER, 'hit');
    return hit as T;
  }
  const value = await produce();
  await state.cache.put(key, value, ttl);
  reply.header(CACHE_HEADER, 'miss');
  return value;
}
