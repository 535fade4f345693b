import { join } from 'node:path';
import {
  Type,
  packageVersion,
  notFound,
  ok,
  responses,
  type App,
  authorizeRequests,
  type AuthorizationOptions,
  type AuthSettings,
  type FastifyPluginAsyncTypebox,
  type ServiceManifest,
} from '@platform/core';
import type { FeatureFlags } from '../features.js';
import { checkService } from '../health.js';

export const GATEWAY_VERSION = packageVersion(join(__dirname, '..', '..'));

const FlagSchema = Type.Object({
  name: Type.String({ description: 'Service name' }),
  enabled: Type.Boolean(),
  source: Type.Union([Type.Literal('override'), Type.Literal('env'), Type.Literal('default')], {
    description: 'What decided `enabled`: a runtime override, FEATURE_<NAME>, or the default',
  }),
  default: Type.Boolean(),
  env: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'FEATURE_<NAME>, null when unset',
  }),
  override: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'Runtime override, null when none',
  }),
});

const ServiceHealthSchema = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('unhealthy')]),
  version: Type.Optional(Type.String()),
  via: Type.Union([Type.Literal('in-process'), Type.Literal('proxy'), Type.Literal('fallback')]),
  error: Type.Optional(Type.String()),
});

export interface SystemOptions {
  services: readonly ServiceManifest[];
  flags: FeatureFlags;
  proxies: Record<string, string>;
  /** The instance that answers a service's /healthz in-process, by service name. */
  inProcess: (name: string) => App;
  healthTimeoutMs: number;
  auth: AuthSettings;
  /** The access policy's options for the gateway's own routes. */
  access: AuthorizationOptions;
}

const tags = ['gateway'];

/** The gateway's own routes: /healthz, aggregated health and feature flags. */
export const systemRoutes: FastifyPluginAsyncTypebox<SystemOptions> = async (app, options) => {
  const { services, flags } = options;
  authorizeRequests(app, 'gateway', options.access);
  const NameParams = Type.Object({
    name: Type.String({ description: 'Service name, e.g. pulse' }),
  });
  const known = (name: string) => {
    if (!flags.has(name)) throw notFound('Feature', name);
    return name;
  };

  app.get(
    '/healthz',
    {
      // Probes are never rate limited: the limiter's hook is not even attached to this route.
      config: {
        access: { resource: 'gateway.health', action: 'read', rule: 'public' },
        rateLimit: false,
      },
      schema: {
        security: [],
        tags,
        operationId: 'gateway.healthz',
        summary: 'Gateway health',
        response: responses({
          200: Type.Object({
            name: Type.String(),
            version: Type.String(),
            status: Type.Literal('ok'),
          }),
        }),
      },
    },
    async () => ok({ name: 'gateway', version: GATEWAY_VERSION, status: 'ok' as const }),
  );

  app.get(
    '/api/v1/health',
    {
      config: { access: { resource: 'gateway.health', action: 'read' } },
      schema: {
        tags,
        operationId: 'gateway.health',
        summary: 'Health of every enabled service',
        description:
          'status is ok when every enabled service answered its /healthz, degraded otherwise.',
        response: responses({
          200: Type.Object({
            status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
            version: Type.String(),
            services: Type.Array(ServiceHealthSchema),
          }),
        }),
      },
    },
    async () => {
      const enabled = services.filter((s) => flags.isEnabled(s.name));
      const results = await Promise.all(
        enabled.map((s) =>
          checkService(
            s,
            options.inProcess(s.name),
            options.proxies[s.name],
            options.healthTimeoutMs,
            options.auth,
          ),
        ),
      );
      const status = results.every((r) => r.status === 'ok')
        ? ('ok' as const)
        : ('degraded' as const);
      return ok({ status, version: GATEWAY_VERSION, services: results });
    },
  );

  app.get(
    '/api/v1/features',
    {
      config: { access: { resource: 'gateway.feature', action: 'read', rule: 'public' } },
      schema: {
        security: [],
        tags,
        operationId: 'gateway.listFeatures',
        summary: 'Every feature flag, its state and its source',
        response: responses({ 200: Type.Array(FlagSchema) }),
      },
    },
    async () => ok(flags.list()),
  );

  app.get(
    '/api/v1/features/:name',
    {
      config: { access: { resource: 'gateway.feature', action: 'read' } },
      schema: {
        tags,
        operationId: 'gateway.getFeature',
        summary: 'One feature flag',
        params: NameParams,
        response: responses({ 200: FlagSchema }),
      },
    },
    async (request) => ok(flags.state(known(request.params.name))),
  );

  app.put(
    '/api/v1/features/:name',
    {
      config: { access: { resource: 'gateway.feature', action: 'update', rule: 'admin' } },
      schema: {
        tags,
        operationId: 'gateway.setFeature',
        summary: 'Override a flag at runtime',
        description: 'Takes effect at once and is kept across restarts until cleared with DELETE.',
        params: NameParams,
        body: Type.Object({ enabled: Type.Boolean() }),
        response: responses({ 200: FlagSchema }),
      },
    },
    async (request) =>
      ok(await flags.setOverride(known(request.params.name), request.body.enabled)),
  );

  app.delete(
    '/api/v1/features/:name',
    {
      config: { access: { resource: 'gateway.feature', action: 'delete', rule: 'admin' } },
      schema: {
        tags,
        operationId: 'gateway.clearFeature',
        summary: 'Clear a runtime override',
        description: 'The flag goes back to FEATURE_<NAME> or its default.',
        params: NameParams,
        response: responses({ 200: FlagSchema }),
      },
    },
    async (request) => ok(await flags.clearOverride(known(request.params.name))),
  );
};
