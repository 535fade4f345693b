import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import {
  AUTH_OFF,
  authenticateRequests,
  authorizationOptions,
  authorizeRequests,
  platformClient,
  remoteKeyResolver,
} from './auth/index.js';
import { named } from './plugins.js';
import { declareNoQuery } from './validation.js';
import { serviceUnavailable } from './errors.js';
import { JobQueue, runPeriodically } from './jobs/index.js';
import { ok, responses } from './schemas.js';
import { AuditRelay, auditChanges, auditedRoute, type OutboxDb } from './audit/index.js';
import type {
  Closable,
  MountOptions,
  ServiceContext,
  ServiceDefinitionOf,
  ServiceManifest,
} from './service-types.js';

export * from './service-types.js';

export const HealthSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  status: Type.Literal('ok'),
});

const isClosable = (value: unknown): value is Closable =>
  typeof value === 'object' && value !== null && typeof (value as Closable).close === 'function';

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
export function defineService<DB, Config = undefined, State = undefined>(
  definition: ServiceDefinitionOf<DB, Config, State>,
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
    // Every change audited (audit/): the outbox written around each state-changing request.
    const relay =
      options.audit &&
      new AuditRelay(name, db as unknown as OutboxDb, platform, auth, options.audit, scope.log);
    if (relay) {
      auditChanges(scope, { service: name, db: db as unknown as OutboxDb, delivered: relay.kick });
      scope.addHook('onClose', () => relay.close());
    }
    scope.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as {
        tags?: string[];
        operationId?: string;
        security?: unknown[];
        hide?: boolean;
        querystring?: unknown;
        'x-audited'?: boolean;
      };
      schema.tags ??= [name];
      declareNoQuery(schema);
      // Public routes need no credentials: the document says so (no security requirement).
      if (route.config?.public) schema.security = [];
      // Whether each call lands in the audit trail (AUDIT_CHANGES): the document says so.
      if (auditedRoute([route.method].flat().map(String), route.config)) schema['x-audited'] = true;
      if (schema.operationId && !schema.operationId.startsWith(`${name}.`))
        schema.operationId = `${name}.${schema.operationId}`;
    });
    const queue = new JobQueue(db, scope.log, typeof jobs === 'object' ? jobs : {});
    const base: ServiceContext<DB, Config> = {
      db,
      config,
      storage: database.kind,
      jobs: queue,
      auth,
      platform: platformLink,
      access,
      platformFor: (identity, headers) => platformClient(name, platform, auth, identity, headers),
      log: scope.log,
      metrics: scope.metrics,
      state: undefined,
    };
    const state = (await definition.setup?.(base)) as State;
    const ctx: ServiceContext<DB, Config, State> = { ...base, state };
    // Closing drains the runs under way, those `start`ed here included, then releases the state,
    // before the database closes (registered now: a boot that fails further on releases it too).
    scope.addHook('onClose', async () => {
      await queue.stop();
      if (isClosable(state)) await state.close();
    });
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
      for (const routes of definition.routes) await scope.register(named(routes), ctx);
    };
    await scope.register(named(main, name), { prefix: `/api/v1/${name}` });
    for (const mount of definition.mounts ?? []) {
      await scope.register(
        named(async (mounted) => {
          for (const routes of mount.routes) await mounted.register(named(routes), ctx);
        }, `${name} ${mount.prefix}`),
        { prefix: mount.prefix },
      );
    }
    if (jobs) {
      for (const job of definition.jobs?.(ctx) ?? []) runPeriodically(queue, job);
      if (relay && options.audit)
        runPeriodically(queue, {
          name: 'audit-relay',
          intervalMs: options.audit.intervalMs,
          task: () => relay.run(),
        });
      scope.addHook('onReady', () => queue.startPolling());
    }
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
    plugin: named(plugin, name),
    resolver:
      authenticate &&
      ((database, config) => authenticate(database.schema<DB>(name), database, config)),
  };
}
