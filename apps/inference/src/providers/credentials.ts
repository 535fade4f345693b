import { badRequest, type Env } from '@platform/core';

const ENV_VAR = /^[A-Z][A-Z0-9_]*$/;
const PLATFORM_SECRETS = /^(SESSION_SECRET|DATABASE_URL|PLATFORM_API_KEY|OIDC_.*)$/;

/** envVar names a variable of the provider's own, never one of the platform's secrets. */
export function checkEnvVar(name: string) {
  if (!ENV_VAR.test(name) || PLATFORM_SECRETS.test(name))
    throw badRequest(
      `envVar must match ^[A-Z][A-Z0-9_]*$ and must not name a platform secret (SESSION_SECRET, DATABASE_URL, OIDC_*, PLATFORM_API_KEY), got ${name}`,
    );
}

export function checkBaseUrl(value: string) {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw badRequest(`baseUrl must be an absolute http(s) URL, got ${value}`);
}

/** The key, read at call time; 400 naming the variable when it is unset. */
export function readKey(
  env: Env,
  provider: { name: string; type: string; env_var: string | null },
) {
  if (provider.type === 'mock') return '';
  const name = provider.env_var ?? '';
  const value = env[name]?.trim();
  if (!value)
    throw badRequest(
      `Provider ${provider.name} needs its API key in the environment variable ${name}, which is not set`,
    );
  return value;
}
