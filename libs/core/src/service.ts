import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { PlatformClient } from '@platform/client';
import type { Kysely, Migrations, PlatformDatabase } from '@platform/db';
import {
  AUTH_OFF,
  authenticateRequests,
  authorizationOptions,
  authorizeRequests,
  type AuthorizationOptions,
  platformClient,
  remoteKeyResolver,
  type AuthSettings,
  type CredentialResolver,
  type Identity,
  type PlatformLink,
} from './auth/index.js';
import type { Env } from './config.js';
import type { HostRoute } from './hosts.js';
import { serviceUnavailable } from './errors.js';
import { JobQueue, runPeriodically, type JobQueueOptions, type PeriodicJob } from './jobs/index.js';
import { ok, responses } from './schemas.js';

/** One environment variable, as the README documents it. */
export interface Variable {
  name: string;
  default: string;
  description: string;
}

/** What each route plugin of a service is given. */
export interface ServiceContext<DB = unknown, Config = undefined> {
  /** Kysely scoped to the service's own Postgres schema. */
  db: Kysely<DB>;
  /** The service's configuration, read once at start-up by its `config` reader. */
  config: Config;
  /** `postgres` or `pglite`. */
  storage: PlatformDatabase['kind'];
  /** The service's durable jobs (libs/core/src/jobs): define kinds, enqueue or start jobs. */
  jobs: JobQueue<DB>;
  /** Whether authentication is on, and its secret (read once at start-up). */
  auth: AuthSettings;
  /**
   * The typed client of the other services (libs/client), in-process in the gateway or over
   * PLATFORM_URL; each call carries this service's signed identity.
   */
  platform: PlatformClient;
  /**
   * The same client acting for the caller of a request (a signed-in person is named in it), with
   * `headers` added to every request.
   */
  platformFor(identity: Identity, headers?: Record<string, string>): PlatformClient;
  /**
   * The access policy's helpers for what a route's declaration cannot say alone: which rows of a
   * private list a caller sees (`visibleTo`), whether it may act as a resource's owner (`mayOwn`).
   */
  access: AuthorizationOptions;
}

/** A route plugin of a service: registered under the service's prefix with its context. */
export type ServiceRoutes<DB = unknown, Config = undefined> = FastifyPluginAsyncTypebox<
  ServiceContext<DB, Config>
>;

/** Route plugins mounted at a path outside the service's prefix. */
export interface ServiceMount<DB = unknown, Config = undefined> {
  /** An absolute path prefix, e.g. `/preview`. */
  prefix: string;
  routes: ReadonlyArray<ServiceRoutes<DB, Config>>;
}

/** What `defineService` is told; everything else is derived from it. */
export interface ServiceDefinition<DB, Config> {
  /** Short name: the path prefix, the Postgres schema, FEATURE_<NAME> and the web UI folder. */
  name: string;
  /** Human title, shown in the dashboard and the API reference. */
  title: string;
  /** The app's folder (`join(__dirname, '..')` from src/index.ts): package.json and web/ live there. */
  root: string;
  /** Port of the standalone server. */
  defaultPort: number;
  migrations: Migrations;
  /** Variables the service reads besides SERVER_VARIABLES (documented in the README). */
  variables?: readonly Variable[];
  /**
   * Reads and validates `variables`; a bad value throws a ConfigError and stops start-up. Required
   * whenever the service declares a Config type (see ServiceDefinitionOf).
   */
  config?: (env: Env) => Config;
  /** Route plugins, registered in order under `/api/v1/<name>`; each is given the service's context. */
  routes: ReadonlyArray<ServiceRoutes<DB, Config>>;
  /**
   * Paths the service owns besides its prefix (the sandbox's `/preview`, `/app`, `/api/v1/studio`):
   * each prefix's route plugins get the same context, are gated by the same flag, and are
   * forwarded to the standalone service by the gateway's proxy like the prefix itself.
   */
  mounts?: ReadonlyArray<ServiceMount<DB, Config>>;
  /**
   * Periodic jobs, on the durable queue: each runs in one instance at a time, on a schedule kept in
   * the database; instances mounted with `jobs: false` leave them to the others.
   */
  jobs?: (ctx: ServiceContext<DB, Config>) => PeriodicJob[];
  /** Off unless FEATURE_<NAME> or an override turns it on (experimental services). */
  experimental?: boolean;
  /** Host names the service claims for content of its own (see hosts.ts), under its mounts. */
  hosts?: (config: Config) => HostRoute[];
  /**
   * The identity service only: checks API keys and session cookies against its own tables. The
   * gateway uses it for every request, and the service for its own when it runs standalone.
   */
  authenticate?: (db: Kysely<DB>, database: PlatformDatabase, config: Config) => CredentialResolver;
}

/** A definition whose `config` reader is required as soon as Config is more than `undefined`. */
export type ServiceDefinitionOf<DB, Config> = ServiceDefinition<DB, Config> &
  (undefined extends Config ? unknown : { config: (env: Env) => Config });

/** How an instance mounts a service. */
export interface MountOptions<Config = unknown> {
  database: PlatformDatabase;
  /** The parsed configuration (from `manifest.config(env)`, read once at start-up). */
  config: Config;
  /**
   * Whether this instance polls for the service's jobs (periodic ones, retries, jobs interrupted
   * elsewhere): false for the gateway's fallback copy of a proxied service, whose standalone
   * instance does it. Options tune the polling (tests shorten it). Either way, a job this
   * instance `start`s runs here.
   */
  jobs: boolean | JobQueueOptions;
  /** Authentication settings (default: off). */
  auth?: AuthSettings;
  /**
   * The host (the gateway) has authenticated every request and set `request.identity`; otherwise
   * the service does it itself: signed identities, and API keys through the identity service.
   */
  trusted?: boolean;
  /** How the service reaches the others (and checks API keys when standalone). */
  platform?: PlatformLink;
}

/** A service as the gateway, a standalone server and the tests see it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of services mixes configs
export interface ServiceManifest<Config = any> {
  name: string;
  title: string;
  /** `/api/v1/<name>` */
  prefix: string;
  /** Every path prefix the service answers under: `prefix` first, then its mounts. */
  prefixes: readonly string[];
  /** The app's package.json version. */
  version: string;
  defaultPort: number;
  migrations: Migrations;
  /** Folder of the web UI, served by the gateway at `/<name>/`. */
  webRoot: string;
  variables: readonly Variable[];
  /** Reads and validates the service's variables. */
  config(env: Env): Config;
  experimental: boolean;
  /**
   * Registered at the root (no Fastify prefix): everything under `prefixes`, i.e. `GET
   * <prefix>/healthz`, the routes, the mounts, and the jobs.
   */
  plugin: FastifyPluginAsync<MountOptions<Config>>;
  /** Host names the service claims (see ServiceDefinition.hosts). */
  hosts?: (config: Config) => HostRoute[];
  /** The identity service's credential check, on a database (see ServiceDefinition.authenticate). */
  resolver?: (database: PlatformDatabase, config: Config) => CredentialResolver;
}

export const HealthSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  status: Type.Literal('ok'),
});

/** The version in `<root>/package.json`. */
export function packageVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  if (!pkg.version) throw new Error(`${root}/package.json has no version`);
  return pkg.version;
}

/**
 * Declares a service. The prefix, web root and version are derived; the plugin gives each route
 * file a Kysely scoped and typed to the service's schema and the parsed configuration, tags every
 * operation with the service's name and prefixes its operationId with it (`pulse.listEvents`),
 * answers `GET /healthz` (503 when the database does not answer), and runs the periodic jobs.
 */
export function defineService<DB, Config = undefined>(
  definition: ServiceDefinitionOf<DB, Config>,
): ServiceManifest<Config> {
  const { name, title, authenticate } = definition;
  const version = packageVersion(definition.root);
  const plugin: FastifyPluginAsync<MountOptions<Config>> = async (scope, options) => {
    const { database, config, jobs, auth = AUTH_OFF, platform = {} } = options;
    const db = database.schema<DB>(name);
    if (!options.trusted) {
      const own = authenticate?.(db, database, config);
      authenticateRequests(scope, {
        settings: auth,
        resolve: own ?? (platform.url ? remoteKeyResolver(platform.url) : undefined),
        signInPath: own ? `/api/v1/${name}/login` : undefined,
      });
    }
    const platformLink = platformClient(name, platform, auth);
    const access = authorizationOptions(name, platformLink, auth);
    // Every route decides by its own declaration, in the gateway, proxied or standalone alike.
    authorizeRequests(scope, name, access);
    scope.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as {
        tags?: string[];
        operationId?: string;
        security?: unknown[];
      };
      schema.tags ??= [name];
      // Public routes need no credentials: the document says so (no security requirement).
      if (route.config?.public) schema.security = [];
      if (schema.operationId && !schema.operationId.startsWith(`${name}.`))
        schema.operationId = `${name}.${schema.operationId}`;
    });
    const queue = new JobQueue(db, scope.log, typeof jobs === 'object' ? jobs : {});
    const ctx: ServiceContext<DB, Config> = {
      db,
      config,
      storage: database.kind,
      jobs: queue,
      auth,
      platform: platformLink,
      access,
      platformFor: (identity, headers) => platformClient(name, platform, auth, identity, headers),
    };
    const main = async (scope: FastifyInstance) => {
      scope.get(
        '/healthz',
        {
          // Public wherever the service runs (probes, the gateway's health), as the gateway's own
          // /healthz: it tells a service's name, version and that its database answers.
          config: { access: { resource: `${name}.health`, action: 'read', rule: 'public' } },
          schema: {
            operationId: 'health',
            summary: `Health of ${title}`,
            description: 'Pings the database; 503 SERVICE_UNAVAILABLE when it does not answer.',
            response: responses({ 200: HealthSchema }),
          },
        },
        async () => {
          try {
            await database.ping();
          } catch (error) {
            throw serviceUnavailable(
              `${name}: database unreachable (${(error as Error).message})`,
              error,
            );
          }
          return ok({ name, version, status: 'ok' as const });
        },
      );
      for (const routes of definition.routes) await scope.register(routes, ctx);
    };
    await scope.register(main, { prefix: `/api/v1/${name}` });
    for (const mount of definition.mounts ?? []) {
      await scope.register(
        async (mounted) => {
          for (const routes of mount.routes) await mounted.register(routes, ctx);
        },
        { prefix: mount.prefix },
      );
    }
    if (jobs) {
      for (const job of definition.jobs?.(ctx) ?? []) runPeriodically(queue, job);
      scope.addHook('onReady', () => queue.startPolling());
    }
    // Closing drains the runs under way, those `start`ed here included, before the database closes.
    scope.addHook('onClose', () => queue.stop());
  };
  return {
    name,
    title,
    prefix: `/api/v1/${name}`,
    prefixes: [`/api/v1/${name}`, ...(definition.mounts ?? []).map((m) => m.prefix)],
    version,
    defaultPort: definition.defaultPort,
    migrations: definition.migrations,
    webRoot: join(definition.root, 'web', 'dist'),
    variables: definition.variables ?? [],
    config: definition.config ?? (() => undefined as Config),
    experimental: definition.experimental ?? false,
    hosts: definition.hosts,
    plugin,
    resolver:
      authenticate &&
      ((database, config) => authenticate(database.schema<DB>(name), database, config)),
  };
}
