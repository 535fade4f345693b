import type { FastifyPluginAsync } from 'fastify';
import swagger from '@fastify/swagger';
import { Type } from 'typebox';
import type { Migrations, PlatformDatabase } from '@platform/db';
import { createApp, type App, type AppOptions } from './app.js';
import type { Env } from './config.js';
import { serviceUnavailable } from './errors.js';
import { ok, responses } from './schemas.js';

/** What a service plugin is given when it is mounted. */
export interface ServiceContext {
  db: PlatformDatabase;
  /** The environment the service reads its own variables from (process.env outside tests). */
  env: Env;
  /**
   * Whether this instance runs the service's periodic jobs: true for a standalone service and an
   * in-process one, false for the gateway's fallback copy of a proxied service (the standalone
   * instance runs them).
   */
  jobs: boolean;
}

/** One environment variable, as the README documents it. */
export interface Variable {
  name: string;
  default: string;
  description: string;
}

/** A service: its identity, its schema's migrations and its Fastify plugin (ARCHITECTURE). */
export interface ServiceManifest {
  /** Short name: the Postgres schema, the feature flag (FEATURE_<NAME>) and the web UI folder. */
  name: string;
  /** Human title, shown in the dashboard and the API reference. */
  title: string;
  /** Mount path of the API, `/api/v1/<name>`. */
  prefix: string;
  version: string;
  /** Port of the standalone server. */
  defaultPort: number;
  migrations: Migrations;
  plugin: FastifyPluginAsync<ServiceContext>;
  /** Folder of the service's web UI, served by the gateway at `/<name>/`. */
  webRoot: string;
  /** Variables the service reads besides SERVER_VARIABLES (documented in the README). */
  variables?: readonly Variable[];
  /** Reads and validates `variables`; called at start-up so that a bad value stops it. */
  config?: (env: Env) => unknown;
}

export const HealthSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  status: Type.Literal('ok'),
});

/**
 * Everything a service answers under its prefix: `GET <prefix>/healthz` (which pings the service's
 * database, so an unreachable database answers 503 instead of hanging) and the service's routes.
 */
export function serviceRoutes(manifest: ServiceManifest): FastifyPluginAsync<ServiceContext> {
  return async (scope, { db, env, jobs }) => {
    scope.get(
      '/healthz',
      {
        schema: {
          tags: [manifest.name],
          summary: `Health of ${manifest.title}`,
          response: responses({ 200: HealthSchema }),
        },
      },
      async () => {
        try {
          await db.ping();
        } catch (error) {
          throw serviceUnavailable(
            `${manifest.name}: database unreachable (${(error as Error).message})`,
            error,
          );
        }
        return ok({ name: manifest.name, version: manifest.version, status: 'ok' as const });
      },
    );
    // Only the context: the options object also carries this scope's prefix.
    await scope.register(manifest.plugin, { db, env, jobs });
  };
}

export const openApiInfo = (title: string, version: string) => ({
  openapi: { openapi: '3.0.3', info: { title, version } },
});

/**
 * One service on its own Fastify instance, under its usual prefix: the standalone server, the
 * gateway's in-process fallback for a proxied service, and the tests all use this.
 */
export async function buildServiceApp(
  manifest: ServiceManifest,
  ctx: ServiceContext,
  options: AppOptions = {},
): Promise<App> {
  const app = createApp(options);
  await app.register(swagger, openApiInfo(manifest.title, manifest.version));
  await app.register(serviceRoutes(manifest), { ...ctx, prefix: manifest.prefix });
  await app.ready();
  return app;
}
