import cors from '@fastify/cors';
import {
  acceptsAnyOrigin,
  authenticateRequests,
  authorizationOptions,
  named,
  platformClient,
  buildServiceApp,
  createApp,
  jobGauges,
  poolGauges,
  loggerOptions,
  Metrics,
  migrateCore,
  traceMixin,
  recordAccess,
  type App,
  type ServiceManifest,
} from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import type { GatewayConfig } from './config.js';
import { registerRateLimit } from './limits.js';
import { securityHeaders } from './security.js';
import { FeatureFlags, FLAGS_CHANNEL, type GatewayDatabase } from './features.js';
import { migrations } from './migrations/index.js';
import { registerOpenApiCollector, registerOpenApiRoutes } from './openapi.js';
import { proxyService } from './proxy.js';
import { systemRoutes } from './routes/system.js';
import { registerWeb, webFallback } from './web.js';

export interface GatewayOptions {
  config: GatewayConfig;
  db: PlatformDatabase;
  services: readonly ServiceManifest[];
  logger?: boolean;
  /** Where log lines go (default stdout): tests read them. */
  logStream?: NodeJS.WritableStream;
  /** false: the API only, no web UIs (a tool reading the API description before they are built). */
  web?: boolean;
}

/** Migrates the gateway's own schema and every service's (disabled ones too: a flag can flip). */
export async function migrateAll(db: PlatformDatabase, services: readonly ServiceManifest[]) {
  await migrateSchema(db, 'gateway', migrations);
  for (const service of services) {
    await migrateSchema(db, service.name, service.migrations);
    await migrateCore(db, service.name);
  }
}

/**
 * The gateway: every service mounted under its prefix (in-process, or proxied with an in-process
 * fallback), gated by its feature flag at request time so that a flag flipped at runtime takes
 * effect at once; health, flags, OpenAPI, and the web UIs after all API routes.
 */
export async function buildGateway(options: GatewayOptions): Promise<App> {
  const { config, db, services, logger, logStream, web = true } = options;
  await migrateAll(db, services);
  const defaults = new Map(services.map((s) => [s.name, !s.experimental]));
  const flags = await FeatureFlags.load(
    db.schema<GatewayDatabase>('gateway'),
    defaults,
    config.features,
  );

  const hostRoutes = services.flatMap((s) => s.hosts?.(config.services[s.name]) ?? []);
  // One registry per gateway instance: requests by route, proxied calls, the services' jobs.
  const metrics = new Metrics();
  jobGauges(
    metrics,
    db,
    services.map((s) => s.name),
  );
  poolGauges(metrics, db);
  const app = createApp({
    logger:
      logger === false
        ? false
        : {
            ...loggerOptions(config.logLevel),
            // The trace id of the request on each of its lines (tracing on).
            mixin: traceMixin,
            ...(logStream ? { stream: logStream } : {}),
          },
    notFound: web
      ? webFallback(
          config.publicDir,
          services,
          flags,
          hostRoutes.map((r) => r.prefix),
        )
      : undefined,
    timeouts: config.timeouts,
    trustProxy: config.trustProxy,
    hostRoutes,
    metrics: { metrics, route: { token: config.metricsToken, authOn: config.auth.enabled } },
  });
  await registerRateLimit(app, config.rateLimit, { db, metrics });
  // Other gateways on the same database announce the overrides they change.
  const unlisten = await db.listen(FLAGS_CHANNEL, () => {
    flags.reload().catch((error: unknown) => app.log.warn({ err: error }, 'flags not reloaded'));
  });
  securityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:'],
        // The services' own origins (the sandbox UI frames a session's preview from its own).
        'frame-src': ["'self'", ...hostRoutes.map((r) => `*.${r.domain}:*`)],
        // The platform is often served over plain http on a laptop or an internal network.
        'upgrade-insecure-requests': null,
      },
    },
  });
  // One string: a list is joined again on every request.
  const exposedHeaders = [
    'x-request-id',
    'retry-after',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
  ].join(', ');
  const platformOrigins = {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins.split(',').map((o) => o.trim()),
    exposedHeaders,
  };
  // Routes that declare `access.anyOrigin` (ingestion with write-only keys) answer any site,
  // without credentials; every other route only CORS_ORIGINS. The in-process routes' declarations
  // are looked up for preflights (recordAccess), the proxied services' in their own tables.
  const anyOrigin = { origin: '*', credentials: false, exposedHeaders, maxAge: 86400 };
  recordAccess(app);
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(null, acceptsAnyOrigin(request) ? anyOrigin : platformOrigins),
  });
  // After the security headers and CORS, which every answer carries, 401s included.
  const identityService = services.find((s) => s.resolver);
  authenticateRequests(app, {
    settings: config.auth,
    resolve: identityService?.resolver?.(db, config.services[identityService.name]),
    signInPath: identityService && `${identityService.prefix}/login`,
  });
  await registerOpenApiCollector(app, services);

  const mount = (service: ServiceManifest) => ({
    database: db,
    config: config.services[service.name],
    auth: config.auth,
    platform: { app: () => app },
    audit: config.audit,
  });
  const accessFor = (name: string) =>
    authorizationOptions(name, platformClient(name, { app: () => app }, config.auth), config.auth);
  const fallbacks = new Map<string, App>();
  for (const service of services) {
    const upstream = config.proxies[service.name];
    if (upstream)
      fallbacks.set(
        service.name,
        await buildServiceApp(service, { ...mount(service), jobs: false }),
      );
  }
  app.addHook('onClose', async () => {
    await unlisten();
    await Promise.all([...fallbacks.values()].map((f) => f.close()));
  });

  await app.register(named(systemRoutes), {
    services,
    flags,
    proxies: config.proxies,
    inProcess: (name) => fallbacks.get(name) ?? app,
    healthTimeoutMs: config.healthTimeoutMs,
    auth: config.auth,
    access: accessFor('gateway'),
  });
  await registerOpenApiRoutes(app, { services, flags, fallbacks });

  for (const service of services) {
    await app.register(
      named(async (scope) => {
        // A disabled service answers exactly as an absent one.
        scope.addHook('onRequest', (_request, reply, done) => {
          if (flags.isEnabled(service.name)) return done();
          reply.callNotFound();
        });
        const fallback = fallbacks.get(service.name);
        if (fallback) {
          await scope.register(named(proxyService), {
            manifest: service,
            upstream: config.proxies[service.name],
            fallback,
            bodyLimit: config.proxyBodyLimit,
            timeoutMs: config.proxyTimeoutMs,
            retryAfterMs: config.proxyRetryMs,
            auth: config.auth,
            access: accessFor(service.name),
          });
        } else {
          // The gateway's hook has identified every request already.
          await scope.register(service.plugin, { ...mount(service), jobs: true, trusted: true });
        }
      }),
      // The service registers its routes under its own prefixes (service.prefixes).
    );
  }

  if (web) await registerWeb(app, config.publicDir, services, flags);
  return app;
}
