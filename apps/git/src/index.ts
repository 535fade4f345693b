import { join } from 'node:path';
import { defineService } from '@platform/core';
import { GIT_VARIABLES, gitConfig, type GitConfig } from './config.js';
import type { GitDatabase } from './database.js';
import { gitState, type GitState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { branchRoutes } from './routes/branches.js';
import { catalogRoutes } from './routes/catalog.js';
import { contentRoutes } from './routes/content.js';
import { protectionRoutes } from './routes/protection.js';
import { providerRoutes } from './routes/providers.js';
import { pullRoutes } from './routes/pulls.js';
import { receiveRoutes } from './routes/receive.js';
import { repoRoutes } from './routes/repos.js';
import { smartHttpRoutes } from './routes/smart-http.js';
import { SMART_HTTP_PREFIX } from './schemas/smart.js';
import { webhookRoutes } from './routes/webhooks.js';

/** Git providers, repositories, branches, commits, files, compare, pull requests and webhooks. */
export const git = defineService<GitDatabase, GitConfig, GitState>({
  name: 'git',
  title: 'Git',
  root: join(__dirname, '..'),
  defaultPort: 3112,
  migrations,
  variables: GIT_VARIABLES,
  config: gitConfig,
  setup: gitState,
  routes: [
    providerRoutes,
    repoRoutes,
    branchRoutes,
    contentRoutes,
    pullRoutes,
    protectionRoutes,
    catalogRoutes,
    webhookRoutes,
    receiveRoutes,
  ],
  // Smart HTTP (git clone, fetch, push) outside /api, as the sandbox's pages are; only paths of
  // `<name>.git` (the web UI's /git/ and its assets stay the gateway's, proxied or not).
  mounts: [{ prefix: SMART_HTTP_PREFIX, routes: [smartHttpRoutes] }],
  // Spec 1 and ARCHITECTURE: off unless FEATURE_GIT=true or an override turns it on.
  experimental: true,
});

export default git;
