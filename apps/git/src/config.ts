import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  envBaseUrls,
  envBool,
  envInt,
  envString,
  normaliseBaseUrl as normaliseUrl,
  type Env,
  type Variable,
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
}

/** Where a delegated GitHub token may always go. */
export const DEFAULT_GITHUB_URL = 'https://api.github.com';

/** A GitHub base URL as compared with GIT_GITHUB_URLS: https, or http on loopback only. */
export const normaliseBaseUrl = (raw: string) => normaliseUrl(raw, 'loopback');

export const GIT_VARIABLES: readonly Variable[] = [
  {
    name: 'GIT_DATA_DIR',
    default: '<DATA_DIR>/git (a temporary directory when DATA_DIR is memory://)',
    description: 'Directory of the bare repositories of `local` git providers',
  },
  {
    name: 'GIT_WEBHOOK_SECRET',
    default: 'unset (POST /webhooks/receive answers 503)',
    description:
      'Secret of the webhooks registered on GitHub; deliveries to /api/v1/git/webhooks/receive must be signed with it (X-Hub-Signature-256)',
  },
  {
    name: 'GIT_TIMEOUT_MS',
    default: '15000',
    description: 'Timeout of one call to a git provider (GitHub) and of one webhook delivery',
  },
  {
    name: 'GIT_GITHUB_URLS',
    default: 'empty (only https://api.github.com)',
    description:
      "Comma-separated GitHub Enterprise API base URLs (https; http only on loopback) a github provider may use besides https://api.github.com: users' delegated tokens are sent nowhere else",
  },
  {
    name: 'GIT_ALLOW_PRIVATE_TARGETS',
    default: 'false',
    description:
      'Whether webhooks of local repositories may be sent to loopback, private, link-local or unspecified addresses',
  },
];

let memoryDir: string | undefined;

/** GIT_DATA_DIR, else `<DATA_DIR>/git`, else a temporary directory for a database in memory. */
function dataDir(env: Env): string {
  const explicit = envString(env, 'GIT_DATA_DIR');
  if (explicit) return resolve(explicit);
  const data = envString(env, 'DATA_DIR', '.data');
  if (data.startsWith('memory://')) {
    memoryDir ??= mkdtempSync(join(tmpdir(), 'platform-git-'));
    return memoryDir;
  }
  return resolve(data, 'git');
}

export function gitConfig(env: Env): GitConfig {
  return {
    dataDir: dataDir(env),
    webhookSecret: envString(env, 'GIT_WEBHOOK_SECRET'),
    timeoutMs: envInt(env, 'GIT_TIMEOUT_MS', 15_000, { min: 100, max: 600_000 }),
    githubUrls: envBaseUrls(env, 'GIT_GITHUB_URLS', 'loopback'),
    allowPrivateTargets: envBool(env, 'GIT_ALLOW_PRIVATE_TARGETS', false),
  };
}
