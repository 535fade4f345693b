import { resolve } from 'node:path';
import {
  AUTH_VARIABLES,
  authSettings,
  ConfigError,
  MiB,
  SERVER_VARIABLES,
  envBool,
  envInt,
  envString,
  envUrl,
  serverConfig,
  type Env,
  type ServiceManifest,
} from '@platform/core';

/**
 * Every variable the gateway reads; `<NAME>` is a service name in capitals (PULSE, ...). The
 * gateway also reads the variables of the services it runs in-process (`ServiceManifest.variables`).
 */
export const GATEWAY_VARIABLES = [
  ...SERVER_VARIABLES,
  ...AUTH_VARIABLES,
  {
    name: 'PUBLIC_DIR',
    default: 'apps/gateway/web/dist',
    description: 'Folder of the dashboard (built by `npm run build:web`)',
  },
  {
    name: 'CORS_ORIGINS',
    default: '*',
    description: 'Comma-separated origins allowed to call the API from a browser',
  },
  {
    name: 'HEALTH_TIMEOUT_MS',
    default: '2000',
    description: "Longest wait for one service's /healthz",
  },
  {
    name: 'PROXY_BODY_LIMIT',
    default: '67108864',
    description:
      'Largest request body (bytes) buffered and forwarded to a proxied service; uploads (text/csv, application/octet-stream, multipart/form-data) stream through unbuffered',
  },
  {
    name: 'PROXY_TIMEOUT_MS',
    default: '30000',
    description: 'Longest wait for a proxied service to answer, from the end of the request body',
  },
  {
    name: 'PROXY_RETRY_MS',
    default: '2000',
    description:
      'After a proxied service was unreachable, how long requests go to the in-process fallback before it is tried again',
  },
  {
    name: 'RATE_LIMIT_MAX',
    default: '1000',
    description: 'Requests one client address may make per window; 0 turns rate limiting off',
  },
  {
    name: 'RATE_LIMIT_WINDOW_MS',
    default: '60000',
    description: 'The rate limiting window',
  },
  {
    name: 'RATE_LIMIT_ALLOW',
    default: '127.0.0.1,::1,::ffff:127.0.0.1',
    description: 'Comma-separated client addresses never rate limited; `none` for none',
  },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    description:
      'Take the client address from X-Forwarded-For set by these proxies: comma-separated addresses or CIDRs',
  },
  {
    name: 'FEATURE_<NAME>',
    default: 'true (experimental services: false)',
    description: 'Mount the service or not',
  },
  {
    name: '<NAME>_PROXY_URL',
    default: 'unset',
    description: 'Base URL of a standalone instance to forward the service to',
  },
] as const;

/** The gateway's configuration, read once at start-up; a bad value stops start-up naming the variable. */
export function gatewayConfig(services: readonly ServiceManifest[], env: Env = process.env) {
  const upper = (name: string) => name.toUpperCase();
  return {
    ...serverConfig(env, 3000),
    auth: authSettings(env),
    publicDir: resolve(envString(env, 'PUBLIC_DIR', resolve(__dirname, '..', 'web', 'dist'))),
    corsOrigins: envString(env, 'CORS_ORIGINS', '*'),
    healthTimeoutMs: envInt(env, 'HEALTH_TIMEOUT_MS', 2000, { min: 100, max: 60_000 }),
    proxyBodyLimit: envInt(env, 'PROXY_BODY_LIMIT', 64 * MiB, { min: 1024 }),
    proxyTimeoutMs: envInt(env, 'PROXY_TIMEOUT_MS', 30_000, { min: 100 }),
    rateLimit: {
      max: envInt(env, 'RATE_LIMIT_MAX', 1000, { min: 0 }),
      windowMs: envInt(env, 'RATE_LIMIT_WINDOW_MS', 60_000, { min: 1000 }),
      allow: envString(env, 'RATE_LIMIT_ALLOW', '127.0.0.1,::1,::ffff:127.0.0.1')
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a && a !== 'none'),
    },
    trustProxy: trustProxy(envString(env, 'TRUST_PROXY')),
    proxyRetryMs: envInt(env, 'PROXY_RETRY_MS', 2000, { min: 0, max: 600_000 }),
    /** FEATURE_<NAME>: true or false; undefined when unset. */
    features: Object.fromEntries(
      services.map((s) => [s.name, envBool(env, `FEATURE_${upper(s.name)}`)]),
    ),
    /** <NAME>_PROXY_URL: base URL of a standalone instance of the service. */
    proxies: Object.fromEntries(
      services.flatMap((s) => {
        const url = envUrl(env, `${upper(s.name)}_PROXY_URL`);
        return url ? [[s.name, url]] : [];
      }),
    ) as Record<string, string>,
    /** Each service's own configuration, read and validated here, once, by its reader. */
    services: Object.fromEntries(services.map((s) => [s.name, s.config(env)])) as Record<
      string,
      unknown
    >,
  };
}

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as addresses or CIDRs. `true`
 * (believe anyone) is refused: any client could then pick its own address, past the rate limit
 * and its allow list.
 */
function trustProxy(value: string | undefined): false | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true')
    throw new ConfigError(
      'TRUST_PROXY',
      'must name the proxies to trust (addresses or CIDRs), not true: with true any client can choose the address it is counted as',
    );
  return value.split(',').map((a) => a.trim());
}

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
