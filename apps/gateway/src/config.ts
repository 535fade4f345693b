import { resolve } from 'node:path';
import {
  LOG_LEVELS,
  MiB,
  envBool,
  envEnum,
  envInt,
  envString,
  envUrl,
  type Env,
  type ServiceManifest,
} from '@platform/core';

/** The gateway's configuration, read once at start-up; the README has a row for each variable. */
export function gatewayConfig(services: readonly ServiceManifest[], env: Env = process.env) {
  const upper = (name: string) => name.toUpperCase();
  return {
    port: envInt(env, 'PORT', 3000, { min: 0, max: 65535 }),
    host: envString(env, 'HOST', '0.0.0.0'),
    databaseUrl: envUrl(env, 'DATABASE_URL'),
    dataDir: envString(env, 'DATA_DIR', '.data'),
    logLevel: envEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    publicDir: resolve(envString(env, 'PUBLIC_DIR', resolve(__dirname, '..', 'public'))),
    corsOrigins: envString(env, 'CORS_ORIGINS', '*'),
    healthTimeoutMs: envInt(env, 'HEALTH_TIMEOUT_MS', 2000, { min: 100, max: 60_000 }),
    proxyBodyLimit: envInt(env, 'PROXY_BODY_LIMIT', 64 * MiB, { min: 1024 }),
    proxyTimeoutMs: envInt(env, 'PROXY_TIMEOUT_MS', 30_000, { min: 100 }),
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
  };
}

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
