import { migrateSchema, openDatabase, type PlatformDatabase } from '@platform/db';
import type { Env } from './config.js';
import { declareVariables, Var } from './variables.js';
import type { App } from './app.js';
import { loggerOptions } from './logging.js';
import { authSettings } from './auth/index.js';
import { buildServiceApp } from './service-app.js';
import { migrateCore } from './audit/index.js';
import { jobGauges, Metrics, poolGauges } from './metrics.js';
import { traceMixin } from './tracing.js';

/** A standalone service's metrics: its requests, its jobs and its database pool. */
function serviceMetrics(db: PlatformDatabase, name: string) {
  const metrics = new Metrics({ service: name });
  jobGauges(metrics, db, [name]);
  poolGauges(metrics, db);
  return metrics;
}
import type { ServiceManifest } from './service.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The variables every server process reads (gateway and standalone services alike). */
export const SERVER = declareVariables({
  PORT: Var.int({
    min: 0,
    max: 65535,
    documentedDefault: "`3000` (gateway), the service's own port (standalone)",
    description: 'Port to listen on',
  }),
  HOST: Var.string({
    default: '0.0.0.0',
    accepts: 'an address',
    description: 'Interface to listen on',
  }),
  DATABASE_URL: Var.url({
    accepts: 'a `postgres://` URL',
    description: 'PostgreSQL connection string; unset means the embedded PGlite',
  }),
  DATABASE_WAIT_MS: Var.int({
    default: 30_000,
    min: 0,
    unit: 'ms',
    description:
      'At start-up, how long to wait for a PostgreSQL server that does not answer yet (starting, restarting) before giving up',
  }),
  DATA_DIR: Var.string({
    default: '.data',
    accepts: 'a folder, or `memory://`',
    description: 'Where PGlite keeps its files; `memory://` keeps them in memory (lost at exit)',
  }),
  LOG_LEVEL: Var.oneOf(LOG_LEVELS, {
    default: 'info',
    description: 'The least severe log lines written (`silent`: none)',
  }),
  HEADERS_TIMEOUT_MS: Var.int({
    default: 10_000,
    min: 100,
    unit: 'ms',
    description:
      'Longest a client may take to send its request headers; then 408 `REQUEST_TIMEOUT` and the connection closes',
  }),
  REQUEST_TIMEOUT_MS: Var.int({
    default: 300_000,
    min: 100,
    unit: 'ms',
    description:
      "Longest a client may take to send its whole request, body included; then 408. Node's own default: a 200 MB FOCUS upload takes about 80 s to stream in, and headers still must come within `HEADERS_TIMEOUT_MS`",
  }),
  AUDIT_CHANGES: Var.bool({
    default: true,
    description:
      "Record every successful change (a POST, PUT, PATCH or DELETE whose access action is create, update, delete or manage; the OpenAPI document marks them `x-audited`) in the ledger as `<service>.<operationId>` with its actor, resource and outcome, through an outbox in the service's own schema written before the handler runs and completed before the answer leaves (an acknowledged change never lacks its event). Ingestion (pulse events), invocations (inference calls) and reads sent as POST are not audited per call; `false` turns it off",
  }),
  AUDIT_RELAY_INTERVAL_MS: Var.int({
    default: 10_000,
    min: 100,
    unit: 'ms',
    description:
      'How often the audit outbox is delivered to the ledger besides right after each change (retries after a ledger outage)',
  }),
  AUDIT_PENDING_GRACE_MS: Var.int({
    default: 600_000,
    min: 1000,
    unit: 'ms',
    description:
      'An outbox row still pending this long (its process died between the change and the answer) is delivered with outcome `unknown`; keep it above `REQUEST_TIMEOUT_MS`',
  }),
  METRICS_TOKEN: Var.string({
    accepts: 'a long random string',
    description:
      'A bearer token that may read `GET /metrics` (Prometheus: `authorization: { credentials: ... }`); unset: only admins may (and nobody with authentication off)',
  }),
  // Read by OpenTelemetry's SDK itself (tracing-preload.ts), declared here to be documented and
  // accepted in deployments; the SDK's other standard OTEL_* variables apply too.
  OTEL_EXPORTER_OTLP_ENDPOINT: Var.string({
    accepts: 'an http(s) URL',
    description:
      'Where traces go over OTLP/HTTP (`<this>/v1/traces`), with the SDK preloaded (`node --require ./libs/core/dist/tracing-preload.js`; the gateway and ledger load it themselves); unset: no tracing, nothing loaded. The standard `OTEL_*` variables (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, ...) apply',
  }),
  OTEL_SERVICE_NAME: Var.string({
    accepts: 'a name',
    description: "The service name on this process's spans (default `platform`)",
  }),
  SHUTDOWN_TIMEOUT_MS: Var.int({
    default: 15_000,
    min: 0,
    unit: 'ms',
    description:
      'On SIGTERM/SIGINT: longest wait for requests under way and queues to drain before the process exits anyway (code 1)',
  }),
});
export const SERVER_VARIABLES = SERVER.variables;

/** Reads SERVER_VARIABLES; a standalone service reads nothing else. */
export function serverConfig(env: Env, defaultPort: number) {
  const values = SERVER.read(env);
  return {
    port: values.PORT ?? defaultPort,
    host: values.HOST,
    databaseUrl: values.DATABASE_URL,
    databaseWaitMs: values.DATABASE_WAIT_MS,
    dataDir: values.DATA_DIR,
    logLevel: values.LOG_LEVEL,
    timeouts: { headersMs: values.HEADERS_TIMEOUT_MS, requestMs: values.REQUEST_TIMEOUT_MS },
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    metricsToken: values.METRICS_TOKEN,
    /** AUDIT_*: the audit outbox's settings, or undefined when changes are not audited. */
    audit: values.AUDIT_CHANGES
      ? {
          intervalMs: values.AUDIT_RELAY_INTERVAL_MS,
          pendingGraceMs: values.AUDIT_PENDING_GRACE_MS,
        }
      : undefined,
  };
}

/** Where a server process keeps its data, from its configuration. */
export const databaseOptions = (config: ReturnType<typeof serverConfig>) => ({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  waitMs: config.databaseWaitMs,
});

/** What a standalone service reads besides the server's, authentication's and its own variables. */
const STANDALONE = declareVariables({
  PLATFORM_URL: Var.url({
    description:
      "Standalone services: the gateway's base URL, through which they check API keys and call other services",
  }),
});
export const STANDALONE_VARIABLES = STANDALONE.variables;

/** Configuration of a standalone service: the server's variables and the service's own. */
export const standaloneConfig = (manifest: ServiceManifest, env: Env = process.env) => ({
  ...serverConfig(env, manifest.defaultPort),
  auth: authSettings(env),
  platformUrl: STANDALONE.read(env).PLATFORM_URL,
  service: manifest.config(env),
});

/**
 * Stops the process cleanly on SIGINT/SIGTERM: `close` stops accepting connections, finishes the
 * requests under way, drains the queues and closes the database; the process then exits 0. When
 * that takes longer than `timeoutMs` it exits 1 anyway: a shutdown is always bounded.
 */
export function closeOnSignals(
  close: () => Promise<void>,
  log: { info: (msg: string) => void; error: (msg: string) => void },
  timeoutMs: number,
) {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      log.info(`${signal} received, shutting down`);
      setTimeout(() => {
        log.error(`Shutdown took longer than ${timeoutMs} ms; exiting without finishing it`);
        process.exit(1);
      }, timeoutMs);
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error(`Shutdown failed: ${(error as Error).message}`);
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Listens where the configuration says, and on SIGTERM/SIGINT drains the app (requests, queues)
 * and closes the database within SHUTDOWN_TIMEOUT_MS: the gateway and every standalone service.
 */
export async function serve(
  app: App,
  db: PlatformDatabase,
  config: ReturnType<typeof serverConfig>,
) {
  closeOnSignals(
    async () => {
      await app.close();
      await db.close();
    },
    app.log,
    config.shutdownTimeoutMs,
  );
  await app.listen({ port: config.port, host: config.host });
}

/** `src/main.ts` of every service: the same plugin, its own port and database. */
export async function runStandalone(manifest: ServiceManifest) {
  const config = standaloneConfig(manifest);
  const db = await openDatabase(databaseOptions(config));
  await migrateSchema(db, manifest.name, manifest.migrations);
  await migrateCore(db, manifest.name);
  const app = await buildServiceApp(
    manifest,
    {
      database: db,
      config: config.service,
      jobs: true,
      auth: config.auth,
      platform: { url: config.platformUrl },
      audit: config.audit,
    },
    {
      logger: { ...loggerOptions(config.logLevel), mixin: traceMixin },
      timeouts: config.timeouts,
      metrics: {
        metrics: serviceMetrics(db, manifest.name),
        route: { token: config.metricsToken, authOn: config.auth.enabled },
      },
    },
  );
  await serve(app, db, config);
  return app;
}
