import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  declareVariables,
  normaliseBaseUrl as normaliseUrl,
  SERVER,
  Var,
  type Env,
} from '@platform/core';

export interface GitConfig {
  /** Where the `local` provider keeps its bare repositories. */
  dataDir: string;
  /** The secret GitHub signs deliveries with (X-Hub-Signature-256); unset: deliveries refused. */
  webhookSecret: string | undefined;
  /** How long one call to a provider (GitHub) or a webhook delivery may take. */
  timeoutMs: number;
  /** Base URLs besides https://api.github.com that delegated tokens may be sent to (no trailing /). */
  githubUrls: string[];
  /** Whether local webhooks may target loopback, private, link-local or unspecified addresses. */
  allowPrivateTargets: boolean;
  /** The platform's origin as git clients reach it (clone URLs, catalog annotations). */
  publicUrl: string | undefined;
}

/** Where a delegated GitHub token may always go. */
export const DEFAULT_GITHUB_URL = 'https://api.github.com';

/** A GitHub base URL as compared with GIT_GITHUB_URLS: https, or http on loopback only. */
export const normaliseBaseUrl = (raw: string) => normaliseUrl(raw, 'loopback');

let memoryDir: string | undefined;

/** `<DATA_DIR>/git`, or a temporary directory for a database in memory. */
function defaultDataDir(env: Env): string {
  const data = SERVER.value(env, 'DATA_DIR');
  if (data.startsWith('memory://')) {
    memoryDir ??= mkdtempSync(join(tmpdir(), 'platform-git-'));
    return memoryDir;
  }
  return resolve(data, 'git');
}

const VARIABLES = declareVariables({
  GIT_DATA_DIR: Var.string({
    default: defaultDataDir,
    documentedDefault: '`<DATA_DIR>/git`; a temporary folder when `DATA_DIR` is `memory://`',
    accepts: 'a folder',
    description: 'Where `local` git providers keep their bare repositories',
  }),
  GIT_WEBHOOK_SECRET: Var.string({
    documentedDefault: 'unset (`/webhooks/receive` answers 409 `NOT_CONFIGURED`)',
    description:
      'The secret GitHub signs webhook deliveries to `/api/v1/git/webhooks/receive` with (`X-Hub-Signature-256`)',
  }),
  GIT_TIMEOUT_MS: Var.int({
    default: 15_000,
    min: 100,
    max: 600_000,
    unit: 'ms',
    description: 'Time limit of one GitHub call and of one outgoing webhook delivery',
  }),
  GIT_GITHUB_URLS: Var.baseUrls('loopback', {
    documentedDefault: 'empty (only `https://api.github.com`)',
    description:
      "GitHub Enterprise API base URLs a github provider may use besides `https://api.github.com`: users' delegated tokens are sent nowhere else",
  }),
  GIT_ALLOW_PRIVATE_TARGETS: Var.bool({
    default: false,
    description:
      '`true` lets webhooks of local repositories target loopback, private, link-local or unspecified addresses; keep `false` in production',
  }),
  GIT_PUBLIC_URL: Var.url({
    documentedDefault:
      "the request's origin for clone URLs; `http://localhost:3000` in catalog annotations",
    accepts: 'an http(s) origin',
    check: (url) => {
      if (!/^https?:/.test(url)) return `must be an http(s) URL, got "${url}"`;
      if (new URL(url).pathname !== '/') return `must be an origin without a path, got "${url}"`;
      return undefined;
    },
    description:
      "The platform's address as git clients reach it: local repositories' clone URLs (`htmlUrl`, `<GIT_PUBLIC_URL>/git/<owner>/<repoName>.git`) and the catalog's `backstage.io/managed-by-location`",
  }),
});

export const GIT_VARIABLES = VARIABLES.variables;

export function gitConfig(env: Env): GitConfig {
  const values = VARIABLES.read(env);
  return {
    dataDir: resolve(values.GIT_DATA_DIR),
    webhookSecret: values.GIT_WEBHOOK_SECRET,
    timeoutMs: values.GIT_TIMEOUT_MS,
    githubUrls: values.GIT_GITHUB_URLS,
    allowPrivateTargets: values.GIT_ALLOW_PRIVATE_TARGETS,
    publicUrl: values.GIT_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}
