import rateLimit from '@fastify/rate-limit';
import { ApiError, type App } from '@platform/core';

export interface RateLimitOptions {
  /** Requests a client may make per window; 0 turns limiting off. */
  max: number;
  windowMs: number;
  /** Client addresses never limited (the laptop's own loopback by default). */
  allow: readonly string[];
}

/**
 * Rate limiting per client address (the address the connection comes from, or with TRUST_PROXY
 * the one X-Forwarded-For names): beyond `max` requests in a window, 429 RATE_LIMITED with
 * Retry-After. Health probes are never limited (/healthz opts out with `config.rateLimit: false`).
 * Counters live in this process's memory, so each gateway instance counts on its own.
 */
export async function registerRateLimit(app: App, options: RateLimitOptions) {
  if (options.max <= 0) return;
  const allowed = new Set(options.allow);
  await app.register(rateLimit, {
    max: options.max,
    timeWindow: options.windowMs,
    allowList: (_request, key) => allowed.has(key),
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        'RATE_LIMITED',
        `Too many requests: at most ${context.max} per ${context.after}; try again in ${Math.ceil(context.ttl / 1000)} s`,
      ),
  });
}
