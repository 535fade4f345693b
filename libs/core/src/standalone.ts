import { migrateSchema, openDatabase, type PlatformDatabase } from '@platform/db';
import { envEnum, envInt, envString, envUrl, type Env } from './config.js';
import type { App } from './app.js';
import { loggerOptions } from './logging.js';
import { authSettings } from './auth/index.js';
import { buildServiceApp } from './service-app.js';
import type { ServiceManifest } from './service.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The variables every server process reads (gateway and standalone services alike). */
export const SERVER_VARIABLES = [
  {
    name: 'PORT',
    default: "3000 (gateway), the service's own port (standalone)",
    description: 'Port to listen on',
  },
  { name: 'HOST', default: '0.0.0.0', description: 'Interface to listen on' },
  {
    name: 'DATABASE_URL',
    default: 'unset',
    description: 'PostgreSQL connection string; unset means the embedded PGlite',
  },
  {
    name: 'DATABASE_WAIT_MS',
    default: '30000',
    description:
      'At start-up, how long to wait for a PostgreSQL server that does not answer yet (starting, restarting) before giving up',
  },
  {
    name: 'DATA_DIR',
    default: '.data',
    description: 'Where PGlite keeps its files; memory:// keeps them in memory',
  },
  { name: 'LOG_LEVEL', default: 'info', description: `One of ${LOG_LEVELS.join(', ')}` },
  {
    name: 'HEADERS_TIMEOUT_MS',
    default: '10000',
    description: 'Longest a client may take to send its request headers (then 408)',
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    default: '300000',
    description:
      "Longest a client may take to send its whole request, body included (then 408); Node's own default, long enough for a 200 MB FOCUS upload",
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    default: '15000',
    description:
      'On SIGTERM/SIGINT: longest wait for requests under way and queues to drain before the process exits anyway (code 1)',
  },
] as const;

/** Reads SERVER_VARIABLES; a standalone service reads nothing else. */
export function serverConfig(env: Env, defaultPort: number) {
  return {
    port: envInt(env, 'PORT', defaultPort, { min: 0, max: 65535 }),
    host: envString(env, 'HOST', '0.0.0.0'),
    databaseUrl: envUrl(env, 'DATABASE_URL'),
    databaseWaitMs: envInt(env, 'DATABASE_WAIT_MS', 30_000, { min: 0 }),
    dataDir: envString(env, 'DATA_DIR', '.data'),
    logLevel: envEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    timeouts: {
      headersMs: envInt(env, 'HEADERS_TIMEOUT_MS', 10_000, { min: 100 }),
      requestMs: envInt(env, 'REQUEST_TIMEOUT_MS', 300_000, { min: 100 }),
    },
    shutdownTimeoutMs: envInt(env, 'SHUTDOWN_TIMEOUT_MS', 15_000, { min: 0 }),
  };
}

/** Where a server process keeps its data, from its configuration. */
export const databaseOptions = (config: ReturnType<typeof serverConfig>) => ({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  waitMs: config.databaseWaitMs,
});

/** What a standalone service reads besides the server's, authentication's and its own variables. */
export const STANDALONE_VARIABLES = [
  {
    name: 'PLATFORM_URL',
    default: 'unset',
    description:
      'Standalone services: base URL of the gateway, through which they check API keys and call other services',
  },
] as const;

/** Configuration of a standalone service: the server's variables and the service's own. */
export const standaloneConfig = (manifest: ServiceManifest, env: Env = process.env) => ({
  ...serverConfig(env, manifest.defaultPort),
  auth: authSettings(env),
  platformUrl: envUrl(env, 'PLATFORM_URL'),
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
  const app = await buildServiceApp(
    manifest,
    {
      database: db,
      config: config.service,
      jobs: true,
      auth: config.auth,
      platform: { url: config.platformUrl },
    },
    { logger: loggerOptions(config.logLevel), timeouts: config.timeouts },
  );
  await serve(app, db, config);
  return app;
}
