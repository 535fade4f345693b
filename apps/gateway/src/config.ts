import { resolve } from 'node:path';
import {
  AUTH_VARIABLES,
  authSettings,
  declareVariables,
  MiB,
  SERVER_VARIABLES,
  serverConfig,
  Var,
  type Env,
  type ServiceManifest,
} from '@platform/core';

/** The gateway's own variables, besides SERVER_VARIABLES and AUTH_VARIABLES. */
const GATEWAY = declareVariables({
  PUBLIC_DIR: Var.string({
    default: () => resolve(__dirname, '..', 'web', 'dist'),
    documentedDefault: '`apps/gateway/web/dist`',
    accepts: 'a folder',
    description: 'Folder of the dashboard (built by `npm run build:web`)',
  }),
  CORS_ORIGINS: Var.string({
    default: '*',
    accepts: 'comma-separated origins, or `*`',
    description: 'Origins allowed to call the API from a browser',
  }),
  HEALTH_TIMEOUT_MS: Var.int({
    default: 2000,
    min: 100,
    max: 60_000,
    unit: 'ms',
    description: "Longest wait for one service's `/healthz` in the aggregated health",
  }),
  PROXY_BODY_LIMIT: Var.int({
    default: 64 * MiB,
    min: 1024,
    unit: 'bytes',
    description:
      'Largest request body the gateway buffers and forwards to a proxied service; uploads (`text/csv`, `application/octet-stream`, `multipart/form-data`) stream through unbuffered, limited by the service',
  }),
  PROXY_TIMEOUT_MS: Var.int({
    default: 30_000,
    min: 100,
    unit: 'ms',
    description:
      'Longest wait for a proxied service to answer, counted from the end of the request body',
  }),
  PROXY_RETRY_MS: Var.int({
    default: 2000,
    min: 0,
    max: 600_000,
    unit: 'ms',
    description:
      'After a proxied service was unreachable, how long requests go to the in-process fallback before it is tried again',
  }),
  RATE_LIMIT_MAX: Var.int({
    default: 1000,
    min: 0,
    description:
      'Requests one client address (and, on the database store, one API key) may make per window (429 `RATE_LIMITED` with `Retry-After` beyond); `0` turns limiting off',
  }),
  RATE_LIMIT_WINDOW_MS: Var.int({
    default: 60_000,
    min: 1000,
    unit: 'ms',
    description: 'The rate limiting window',
  }),
  RATE_LIMIT_STORE: Var.oneOf(['auto', 'database', 'memory'] as const, {
    default: 'auto' as 'auto' | 'database' | 'memory',
    description:
      "Where rate-limit counters live: `database` (the gateway schema's `rate_limits` table, shared by every gateway on the database, which then enforce one limit, counted per address and per API key), `memory` (each gateway process counts alone, per address), `auto`: `database` on PostgreSQL, `memory` on PGlite",
  }),
  RATE_LIMIT_ALLOW: Var.list({
    default: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
    accepts: 'comma-separated addresses, or `none`',
    description: 'Client addresses never limited (the laptop itself)',
  }),
  TRUST_PROXY: Var.string({
    accepts: 'comma-separated addresses or CIDRs',
    // `true` (believe anyone) is refused: any client could then pick its own address, past the
    // rate limit and its allow list.
    check: (value) =>
      value === 'true'
        ? 'must name the proxies to trust (addresses or CIDRs), not true: with true any client can choose the address it is counted as'
        : undefined,
    description:
      'Believe `X-Forwarded-For` set by these proxies (`127.0.0.1` for a reverse proxy on the same host: else every client comes from loopback, which `RATE_LIMIT_ALLOW` exempts); `true` is refused',
  }),
  'FEATURE_<NAME>': Var.bool({
    documentedDefault: '`true` (experimental services such as `git`: `false`)',
    description: 'Mount the service or not',
  }),
  '<NAME>_PROXY_URL': Var.url({
    description: 'Base URL of a standalone instance; the gateway forwards `/api/v1/<name>/*` there',
  }),
});

/**
 * Every variable the gateway reads; `<NAME>` is a service name in capitals (PULSE, ...). The
 * gateway also reads the variables of the services it runs in-process (`ServiceManifest.variables`).
 */
export const GATEWAY_VARIABLES = [...SERVER_VARIABLES, ...GATEWAY.variables, ...AUTH_VARIABLES];

/** The gateway's configuration, read once at start-up; a bad value stops start-up naming the variable. */
export function gatewayConfig(services: readonly ServiceManifest[], env: Env = process.env) {
  const upper = (name: string) => name.toUpperCase();
  const server = serverConfig(env, 3000);
  const auth = authSettings(env);
  const values = GATEWAY.read(env);
  const { 'FEATURE_<NAME>': feature, '<NAME>_PROXY_URL': proxy } = GATEWAY.declared;
  return {
    ...server,
    auth,
    publicDir: resolve(values.PUBLIC_DIR),
    corsOrigins: values.CORS_ORIGINS,
    healthTimeoutMs: values.HEALTH_TIMEOUT_MS,
    proxyBodyLimit: values.PROXY_BODY_LIMIT,
    proxyTimeoutMs: values.PROXY_TIMEOUT_MS,
    rateLimit: {
      max: values.RATE_LIMIT_MAX,
      windowMs: values.RATE_LIMIT_WINDOW_MS,
      allow: values.RATE_LIMIT_ALLOW.filter((a) => a !== 'none'),
      store: values.RATE_LIMIT_STORE,
    },
    /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as addresses or CIDRs. */
    trustProxy:
      values.TRUST_PROXY === undefined || values.TRUST_PROXY === 'false'
        ? (false as const)
        : values.TRUST_PROXY.split(',').map((a) => a.trim()),
    proxyRetryMs: values.PROXY_RETRY_MS,
    /** FEATURE_<NAME>: true or false; undefined when unset. */
    features: Object.fromEntries(
      services.map((s) => [s.name, feature.read(env, `FEATURE_${upper(s.name)}`)]),
    ),
    /** <NAME>_PROXY_URL: base URL of a standalone instance of the service. */
    proxies: Object.fromEntries(
      services.flatMap((s) => {
        const url = proxy.read(env, `${upper(s.name)}_PROXY_URL`);
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

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
