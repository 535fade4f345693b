import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PlatformClient } from '@platform/client';
import type { Metrics } from './metrics.js';
import type { Kysely, Migrations, PlatformDatabase } from '@platform/db';
import type {
  AuthorizationOptions,
  AuthSettings,
  CredentialResolver,
  Identity,
  PlatformLink,
} from './auth/index.js';
import type { Env } from './config.js';
import type { HostRoute } from './hosts.js';
import type { JobQueue, JobQueueOptions, PeriodicJob } from './jobs/index.js';
import type { AuditSettings } from './audit/relay.js';

/** The types of a service: what `defineService` is told, and what its routes and hosts get. */

/** One environment variable, as the README documents it (Markdown; see variables.ts). */
export interface Variable {
  name: string;
  default: string;
  /** The values it takes (`1 to 100`, `` `true` or `false` ``). */
  accepts?: string;
  description: string;
}

/** What each route plugin of a service is given. */
export interface ServiceContext<DB = unknown, Config = undefined, State = undefined> {
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
  /** The instance's logger. */
  log: FastifyBaseLogger;
  /**
   * The process's metrics (`GET /metrics`), where a service counts what is its own (`counter`);
   * undefined where none are kept (tests, the gateway's fallback copy of a proxied service).
   */
  metrics?: Metrics;
  /**
   * What the definition's `setup` built for this instance (caches, in-memory registries, writers):
   * one per mounted instance, shared by its routes and jobs (undefined without a `setup`).
   */
  state: State;
}

/** Per-instance state that must be released when the instance closes. */
export interface Closable {
  close(): void | Promise<void>;
}

/** A route plugin of a service: registered under the service's prefix with its context. */
export type ServiceRoutes<
  DB = unknown,
  Config = undefined,
  State = undefined,
> = FastifyPluginAsyncTypebox<ServiceContext<DB, Config, State>>;

/** Route plugins mounted at a path outside the service's prefix. */
export interface ServiceMount<DB = unknown, Config = undefined, State = undefined> {
  /** An absolute path prefix, e.g. `/preview`. */
  prefix: string;
  routes: ReadonlyArray<ServiceRoutes<DB, Config, State>>;
}

/** What `defineService` is told; everything else is derived from it. */
export interface ServiceDefinition<DB, Config, State = undefined> {
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
  /**
   * Builds the instance's state once, before any route or job is registered: what they then find
   * in `ctx.state`. When it has a `close` method, closing the instance calls it (after the jobs
   * under way have finished). Required whenever the service declares a State type.
   */
  setup?: (ctx: ServiceContext<DB, Config>) => State | Promise<State>;
  /** Route plugins, registered in order under `/api/v1/<name>`; each is given the service's context. */
  routes: ReadonlyArray<ServiceRoutes<DB, Config, State>>;
  /**
   * Paths the service owns besides its prefix (the sandbox's `/preview`, `/app`, `/api/v1/studio`):
   * each prefix's route plugins get the same context, are gated by the same flag, and are
   * forwarded to the standalone service by the gateway's proxy like the prefix itself.
   */
  mounts?: ReadonlyArray<ServiceMount<DB, Config, State>>;
  /**
   * Periodic jobs, on the durable queue: each runs in one instance at a time, on a schedule kept in
   * the database; instances mounted with `jobs: false` leave them to the others.
   */
  jobs?: (ctx: ServiceContext<DB, Config, State>) => PeriodicJob[];
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

/**
 * A definition whose `config` reader is required as soon as Config is more than `undefined`, and
 * its `setup` as soon as State is.
 */
export type ServiceDefinitionOf<DB, Config, State = undefined> = ServiceDefinition<
  DB,
  Config,
  State
> &
  (undefined extends Config ? unknown : { config: (env: Env) => Config }) &
  (undefined extends State
    ? unknown
    : { setup: (ctx: ServiceContext<DB, Config>) => State | Promise<State> });

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
  /**
   * Audit every state-changing request (libs/core/src/audit): the outbox table must exist
   * (`migrateCore`); the relay delivers to the ledger through `platform`, at once and every
   * `intervalMs` (periodic job, where `jobs` is on). Off when absent.
   */
  audit?: AuditSettings & { intervalMs: number };
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
