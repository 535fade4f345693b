import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase } from '../database.js';
import { localWebhooks, type LocalWebhooks } from './notify.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface GitState {
  /** Local repositories' webhooks: the durable delivery job and the secrets' sealing. */
  webhooks: LocalWebhooks;
}

export type GitContext = ServiceContext<GitDatabase, GitConfig, GitState>;
/** A route plugin of git. */
export type GitRoutes = ServiceRoutes<GitDatabase, GitConfig, GitState>;

/** The definition's `setup`: run once per mounted instance. */
export const gitState = (ctx: ServiceContext<GitDatabase, GitConfig>): GitState => ({
  webhooks: localWebhooks(ctx),
});
