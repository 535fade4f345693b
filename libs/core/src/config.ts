/** Start-up configuration from environment variables, validated once; a bad value stops start-up. */
import { normaliseBaseUrl } from './destination.js';

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

const present = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

export function envString(env: Env, name: string): string | undefined;
export function envString(env: Env, name: string, fallback: string): string;
export function envString(env: Env, name: string, fallback?: string) {
  return present(env, name) ?? fallback;
}

export function envInt(
  env: Env,
  name: string,
  fallback: number,
  range: { min?: number; max?: number } = {},
) {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function envBool(env: Env, name: string): boolean | undefined;
export function envBool(env: Env, name: string, fallback: boolean): boolean;
export function envBool(env: Env, name: string, fallback?: boolean) {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function envUrl(env: Env, name: string): string | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (!['http:', 'https:', 'postgres:', 'postgresql:'].includes(url.protocol)) throw new Error();
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
}

export function envEnum<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T))
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/**
 * A comma-separated list of base URLs (an allowlist), each normalised by normaliseBaseUrl; a bad
 * entry stops start-up naming the variable.
 */
export function envBaseUrls(env: Env, name: string, http: 'any' | 'loopback'): string[] {
  return (envString(env, name) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      try {
        return normaliseBaseUrl(entry, http);
      } catch (error) {
        throw new ConfigError(name, (error as Error).message);
      }
    });
}
