import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { Counter, Histogram, Registry, Gauge } from 'prom-client';
import { isDatabaseUnavailable, sql, sqlState, type PlatformDatabase } from '@platform/db';
import { roleOf } from './auth/policy.js';

// Prometheus metrics (issue 38, item 1): one Registry per app instance (never prom-client's global
// one, which in-process instances would share), `GET /metrics` in the text format, readable by
// admins or with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).

/** The metrics of one app instance. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'platform_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'platform_http_request_duration_seconds',
    help: 'Time to answer, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly proxied = new Counter({
    name: 'platform_proxy_requests_total',
    help: 'Requests for a proxied service, by service and by who answered (upstream or in-process fallback)',
    labelNames: ['service', 'served_by', 'status'] as const,
    registers: [this.registry],
  });
  readonly databaseErrors = new Counter({
    name: 'platform_database_errors_total',
    help: 'Requests that ended on a database error, by SQLSTATE class (08: unavailable)',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'platform_rate_limit_refusals_total',
    help: 'Requests refused with 429 RATE_LIMITED, by what was counted (key or address)',
    labelNames: ['by'] as const,
    registers: [this.registry],
  });

  private readonly own = new Map<string, Counter<string>>();

  constructor(labels: Record<string, string> = {}) {
    this.registry.setDefaultLabels(labels);
  }

  /** A counter of a service's own (inference tokens and cost, ...): made once per registry. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    let made = this.own.get(name);
    if (!made) {
      made = new Counter({ name, help, labelNames, registers: [this.registry] });
      this.own.set(name, made);
    }
    return made as Counter<L>;
  }

  /** Records one answered request (an onResponse hook; callback style: no promise per request). */
  observe(request: FastifyRequest, reply: FastifyReply) {
    // The template, never the URL as sent: unmatched requests share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { route, method: request.method, status: String(reply.statusCode) };
    const upstream = request.routeOptions.config?.proxiedTo;
    if (upstream) {
      // The proxied service's own template of the URL (its in-process copy knows them).
      labels.route = upstream.routeOf?.(request.method, request.url) ?? route;
      const fallback = reply.getHeader('x-served-by') === 'in-process-fallback';
      this.proxied.inc({
        service: /^\/api\/v1\/([^/]+)/.exec(route)?.[1] ?? route.split('/')[1] ?? 'unknown',
        served_by: fallback ? 'fallback' : 'upstream',
        status: labels.status,
      });
    }
    this.requests.inc(labels);
    this.latency.observe(labels, reply.elapsedTime / 1000);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The template of the route that would serve `method url` (set by recordTemplates). */
    routeOf?: (method: string, url: string) => string | undefined;
    /** The process's metrics (set by observeRequests). */
    metrics?: Metrics;
  }
}

/** Keeps every route's template in a router of `app`'s own, answered by `app.routeOf`. */
export function recordTemplates(app: FastifyInstance) {
  const router = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!router.hasRoute(method as HTTPMethod, route.url))
        router.on(method as HTTPMethod, route.url, () => undefined, route.url);
    }
  });
  app.decorate('routeOf', (method: string, url: string) => {
    const found = router.find(method as HTTPMethod, url.split('?')[0]);
    return found ? (found.store as string) : undefined;
  });
}

/**
 * Gauges of the durable jobs of `services` (their schemas on `db`), read from the database at
 * each scrape in one query: jobs waiting, the age of the oldest, failed jobs by kind.
 */
export function jobGauges(metrics: Metrics, db: PlatformDatabase, services: readonly string[]) {
  let last: { at: number; rows: Promise<JobRow[]> } | undefined;
  const rows = () => {
    if (!last || Date.now() - last.at > 1000)
      last = { at: Date.now(), rows: jobRows(db, services) };
    return last.rows;
  };
  const registers = [metrics.registry];
  new Gauge({
    name: 'platform_jobs_queued',
    help: 'Jobs waiting to run (queued), by service and kind',
    labelNames: ['service', 'kind'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of await rows().catch(() => []))
        if (r.status === 'queued') this.set({ service: r.service, kind: r.kind }, r.n);
    },
  });
  new Gauge({
    name: 'platform_jobs_oldest_queued_seconds',
    help: 'How long the oldest due job has waited past its time, by service',
    labelNames: ['service'] as const,
    registers,
    async collect() {
      this.reset();
      const oldest = new Map<string, number>();
      for (const r of await rows().catch(() => []))
        if (r.status === 'queued')
          oldest.set(r.service, Math.max(oldest.get(r.service) ?? 0, r.oldest ?? 0));
      for (const [service, age] of oldest) this.set({ service }, age);
    },
  });
  new Gauge({
    name: 'platform_jobs_failed',
    help: 'Jobs that failed for good (kept in the jobs table), by service and kind',
    labelNames: ['service', 'kind'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of await rows().catch(() => []))
        if (r.status === 'failed') this.set({ service: r.service, kind: r.kind }, r.n);
    },
  });
}

/**
 * Gauges of the database pool (PostgreSQL), read at each scrape: connections in use, idle, the
 * queries waiting for one, and the pool's size. PGlite (one session, no pool) has none.
 */
export function poolGauges(metrics: Metrics, db: PlatformDatabase) {
  if (!db.poolStats) return;
  const stats = db.poolStats.bind(db);
  new Gauge({
    name: 'platform_database_connections',
    help: 'Connections of the database pool, by state (in_use, idle), and queries waiting for one',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    collect() {
      const { total, idle, waiting } = stats();
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Gauge({
    name: 'platform_database_connections_max',
    help: 'The size of the database pool',
    registers: [metrics.registry],
    collect() {
      this.set(stats().max);
    },
  });
}

interface JobRow {
  service: string;
  kind: string;
  status: string;
  n: number;
  oldest: number | null;
}

async function jobRows(db: PlatformDatabase, services: readonly string[]): Promise<JobRow[]> {
  if (services.length === 0) return [];
  const parts = services.map(
    (service) => sql`select ${service}::text as service, kind, status, count(*)::int as n,
      extract(epoch from now() - min(run_at) filter (where run_at <= now()))::float8 as oldest
      from ${sql.table(`${service}.jobs`)} where status in ('queued', 'failed')
      and kind not like 'periodic:%' group by kind, status`,
  );
  const { rows } = await sql<JobRow>`${sql.join(parts, sql` union all `)}`.execute(db.kysely);
  return rows.map((r) => ({
    ...r,
    n: Number(r.n),
    oldest: r.oldest === null ? null : Number(r.oldest),
  }));
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether `header` is `Bearer <token>`: compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(token));
}

export interface MetricsRouteOptions {
  /** METRICS_TOKEN: a bearer token that may read the metrics (Prometheus' `authorization`). */
  token?: string;
  /** Whether authentication is on: then admins (and platform services) may read them too. */
  authOn: boolean;
}

/**
 * `GET /metrics`: the instance's registry in Prometheus' text format, to an admin (authentication
 * on) or a bearer of METRICS_TOKEN; 401/403 envelopes otherwise. Never public: with
 * authentication off, only the token opens it.
 */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, options: MetricsRouteOptions) {
  app.get(
    '/metrics',
    {
      // Answered here, by its own rule (token or admin): the policy's hook lets it through.
      config: {
        public: true,
        access: { resource: 'metrics', action: 'read', rule: 'public' },
        rateLimit: false,
      } as never,
      schema: { hide: true },
    },
    async (request, reply) => {
      const identity = request.identity;
      const admin =
        options.authOn && identity.kind !== 'anonymous' && roleOf(identity, true) === 'admin';
      if (!admin && !bearerMatches(request.headers.authorization, options.token)) {
        const status = request.headers.authorization || identity.kind !== 'anonymous' ? 403 : 401;
        return reply
          .code(status)
          .type('application/json; charset=utf-8')
          .send({
            success: false,
            error: {
              code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
              message: 'The metrics need an admin, or Authorization: Bearer <METRICS_TOKEN>',
            },
          });
      }
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}

/** What createApp is given: the instance's metrics, and with `route` its `GET /metrics`. */
export interface MetricsOptions {
  metrics: Metrics;
  route?: MetricsRouteOptions;
}

/** Every answer of `app` counted by route template (an onResponse hook), and `GET /metrics`. */
export function observeRequests(app: FastifyInstance, { metrics, route }: MetricsOptions) {
  app.decorate('metrics', metrics);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request, reply);
    done();
  });
  // Requests that end on a database error (a failed query, the database unreachable).
  app.addHook('onError', (_request, _reply, error, done) => {
    const pgCode = sqlState(error) ?? '';
    if (pgCode || isDatabaseUnavailable(error))
      metrics.databaseErrors.inc({ class: pgCode ? pgCode.slice(0, 2) : '08' });
    done();
  });
  if (route) metricsRoute(app, metrics, route);
}
