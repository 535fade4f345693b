import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declareVariables, Var, type Env } from '@platform/core';

const MIB = 1024 * 1024;
export const PUBLIC_REGISTRY = 'https://registry.npmjs.org';

const VARIABLES = declareVariables({
  STAGE_NPM_REGISTRY: Var.baseUrl('any', {
    documentedDefault: `\`${PUBLIC_REGISTRY}\``,
    description:
      "The npm registry bare imports of pages and backends come from; unset, its requests go through the private-address guard, set, it is the operator's choice and may be on a private address (a mirror)",
  }),
  STAGE_NPM_MAX_PACKAGE_BYTES: Var.int({
    default: 32 * MIB,
    min: 1024,
    max: 1024 * MIB,
    unit: 'bytes',
    description:
      'Largest npm package a render may use, unpacked (and largest registry answer about one package); a larger one fails the render naming it',
  }),
  STAGE_NPM_MAX_PACKAGES: Var.int({
    default: 300,
    min: 1,
    max: 10_000,
    description: 'npm packages one session may use, dependencies included; more fail the render',
  }),
  STAGE_NPM_MAX_TOTAL_BYTES: Var.int({
    default: 256 * MIB,
    min: 1024,
    max: 16 * 1024 * MIB,
    unit: 'bytes',
    description:
      "Bytes all of one session's npm packages may add up to, unpacked; more fail the render",
  }),
  STAGE_NPM_FETCH_TIMEOUT_MS: Var.int({
    default: 30_000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    description:
      'Time one request to the npm registry (metadata or tarball) may take, body included; beyond it the render fails naming the registry',
  }),
  STAGE_NPM_CACHE_DIR: Var.string({
    default: () => join(tmpdir(), 'stage-npm'),
    documentedDefault: '`<os temp dir>/stage-npm`',
    accepts: 'a folder',
    description:
      'Where pinned npm packages are unpacked for the bundler: a cache of the tarballs kept in the database, safe to delete',
  }),
});

export const NPM_VARIABLES = VARIABLES.variables;

export function npmConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    registry: values.STAGE_NPM_REGISTRY ?? PUBLIC_REGISTRY,
    /** A registry set by the operator may be on a private address; the default one may not. */
    registryChosen: values.STAGE_NPM_REGISTRY !== undefined,
    maxPackageBytes: values.STAGE_NPM_MAX_PACKAGE_BYTES,
    maxPackages: values.STAGE_NPM_MAX_PACKAGES,
    maxTotalBytes: values.STAGE_NPM_MAX_TOTAL_BYTES,
    fetchTimeoutMs: values.STAGE_NPM_FETCH_TIMEOUT_MS,
    cacheDir: values.STAGE_NPM_CACHE_DIR,
  };
}

export type NpmConfig = ReturnType<typeof npmConfig>;
