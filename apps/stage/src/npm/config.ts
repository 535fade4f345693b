import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  envInt,
  envString,
  normaliseBaseUrl,
  type Env,
  type Variable,
} from '@platform/core';

const MIB = 1024 * 1024;
export const PUBLIC_REGISTRY = 'https://registry.npmjs.org';

export const NPM_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_NPM_REGISTRY',
    default: PUBLIC_REGISTRY,
    description:
      "The npm registry bare imports of pages and backends are resolved from. Unset, requests go through the private-address guard; set, it is the operator's choice and may be on a private address",
  },
  {
    name: 'STAGE_NPM_MAX_PACKAGE_BYTES',
    default: '33554432',
    description:
      'Largest npm package a render may use, in bytes unpacked (and largest registry answer about one package); a larger one fails the render naming it',
  },
  {
    name: 'STAGE_NPM_MAX_PACKAGES',
    default: '300',
    description:
      'Packages (dependencies of dependencies included) one session may use; more fail the render',
  },
  {
    name: 'STAGE_NPM_MAX_TOTAL_BYTES',
    default: '268435456',
    description:
      'Bytes all the packages of one session may add up to, unpacked; more fail the render',
  },
  {
    name: 'STAGE_NPM_FETCH_TIMEOUT_MS',
    default: '30000',
    description:
      'Time one request to the npm registry (metadata or tarball) may take, in ms; beyond it the render fails naming the registry',
  },
  {
    name: 'STAGE_NPM_CACHE_DIR',
    default: '<os temp dir>/stage-npm',
    description:
      'Where pinned packages are unpacked for the bundler: a cache of the tarballs kept in the database, safe to delete',
  },
];

export function npmConfig(env: Env) {
  const raw = envString(env, 'STAGE_NPM_REGISTRY');
  let registry = PUBLIC_REGISTRY;
  if (raw !== undefined) {
    try {
      registry = normaliseBaseUrl(raw, 'any');
    } catch (error) {
      throw new ConfigError('STAGE_NPM_REGISTRY', (error as Error).message);
    }
  }
  return {
    registry,
    /** A registry set by the operator may be on a private address; the default one may not. */
    registryChosen: raw !== undefined,
    maxPackageBytes: envInt(env, 'STAGE_NPM_MAX_PACKAGE_BYTES', 32 * MIB, {
      min: 1024,
      max: 1024 * MIB,
    }),
    maxPackages: envInt(env, 'STAGE_NPM_MAX_PACKAGES', 300, { min: 1, max: 10_000 }),
    maxTotalBytes: envInt(env, 'STAGE_NPM_MAX_TOTAL_BYTES', 256 * MIB, {
      min: 1024,
      max: 16 * 1024 * MIB,
    }),
    fetchTimeoutMs: envInt(env, 'STAGE_NPM_FETCH_TIMEOUT_MS', 30_000, { min: 100, max: 600_000 }),
    cacheDir: envString(env, 'STAGE_NPM_CACHE_DIR') ?? join(tmpdir(), 'stage-npm'),
  };
}

export type NpmConfig = ReturnType<typeof npmConfig>;
