import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { API_KEY_HEADER, ApiError, type App, type Metrics } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import type { FastifyRequest } from 'fastify';
import { databaseStore, pruneLimits } from './limits-store.js';

export interface RateLimitOptions {
  /** Requests a client may make per window; 0 turns limiting off. */
  max: number;
  windowMs: number;
  /** Client addresses never limited (the laptop's own loopback by default). */
  allow: readonly string[];
  /**
   * Where the counters are: `database` (shared by every gateway on it), `memory` (this process),
   * `auto`: the database on PostgreSQL, memory on PGlite (which one process alone opens).
   */
  store?: 'auto' | 'database' | 'memory';
}

/** The API key a request carries (X-API-Key, or a bearer token), hashed: never kept as sent. */
function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[API_KEY_HEADER];
  const bearer = request.headers.authorization?.startsWith('Bearer ')
    ? request.headers.authorization.slice(7).trim()
    : undefined;
  const key = (typeof header === 'string' ? header : undefined) ?? bearer;
  return key ? createHash('sha256').update(key).digest('hex').slice(0, 32) : undefined;
}

/**
 * Rate limiting per client address (the address the connection comes from, or with TRUST_PROXY
 * the one X-Forwarded-For names) and, on the database store, per API key as well: beyond `max`
 * requests in a window in either, 429 RATE_LIMITED with Retry-After. Health probes are never
 * limited (/healthz opts out with `config.rateLimit: false`). On the database store the counters
 * are shared by every gateway on that database: N gateways enforce one limit, not N.
 */
export async function registerRateLimit(
  app: App,
  options: RateLimitOptions,
  context: { db: PlatformDatabase; metrics?: Metrics },
) {
  if (options.max <= 0) return;
  const allowed = new Set(options.allow);
  const shared =
    options.store === 'database' || (options.store !== 'memory' && context.db.kind === 'postgres');
  const onDatabaseError = (error: unknown) =>
    app.log.error({ err: error }, 'rate limits: the database did not answer; request let through');
  let prune: NodeJS.Timeout | undefined;
  if (shared) {
    prune = setInterval(
      () => {
        pruneLimits(context.db).catch(onDatabaseError);
      },
      Math.max(options.windowMs, 60_000),
    );
    prune.unref();
    app.addHook('onClose', async () => clearInterval(prune));
  }
  await app.register(rateLimit, {
    max: options.max,
    timeWindow: options.windowMs,
    allowList: (request) => allowed.has(request.ip),
    ...(shared
      ? {
          store: databaseStore(context.db, onDatabaseError),
          keyGenerator: (request: FastifyRequest) => {
            const key = keyOf(request);
            return `a:${request.ip}${key ? `|k:${key}` : ''}`;
          },
        }
      : {}),
    onExceeded: (_request, key) =>
      context.metrics?.rateLimited.inc({ by: key.includes('|k:') ? 'key' : 'address' }),
    errorResponseBuilder: (_request, limit) =>
      new ApiError(
        'RATE_LIMITED',
        `Too many requests: at most ${limit.max} per ${limit.after}; try again in ${Math.ceil(limit.ttl / 1000)} s`,
      ),
  });
}
