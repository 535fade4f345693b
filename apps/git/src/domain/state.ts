import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase } from '../database.js';
import { localWebhooks, type LocalWebhooks } from './notify.js';
import { pushRecorder, type PushRecorder } from './pushes.js';
import { catalogDiscovery, type CatalogDiscovery } from './catalog.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface GitState {
  /** Local repositories' webhooks: the durable delivery job and the secrets' sealing. */
  webhooks: LocalWebhooks;
  /** Pushes to local repositories: events, webhooks, the ledger, catalog discovery. */
  pushes: PushRecorder;
  /** Catalog discovery of repositories' catalog-info.yaml. */
  catalog: CatalogDiscovery;
}

export type GitContext = ServiceContext<GitDatabase, GitConfig, GitState>;
/** A route plugin of git. */
export type GitRoutes = ServiceRoutes<GitDatabase, GitConfig, GitState>;

/** The definition's `setup`: run once per mounted instance. */
export function gitState(ctx: ServiceContext<GitDatabase, GitConfig>): GitState {
  const webhooks = localWebhooks(ctx);
  const pushes = pushRecorder(ctx, webhooks);
  const catalog = catalogDiscovery(ctx);
  // A push to the default branch: the catalog file is read again (a durable job, within seconds).
  pushes.onPush(async (repo, update, identity) => {
    if (update.ref === `refs/heads/${repo.default_branch}`) await catalog.enqueue(repo, identity);
  });
  return { webhooks, pushes, catalog };
}
