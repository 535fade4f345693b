import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { CatalogConfig } from '../config.js';
import type { CatalogDatabase } from '../database.js';
import { GraphCache } from './graph/cache.js';
import { scorecardEvaluations, type ScorecardEvaluations } from './scorecards/evaluate.js';

/** What each instance of the catalog builds once, at start-up, for its routes. */
export interface CatalogState {
  /** The dependency graph in memory, read again whenever what it is made of changed. */
  graph: GraphCache;
  /** Scorecard evaluations: on each change of a service or a scorecard, and periodically. */
  scorecards: ScorecardEvaluations;
}

export type CatalogContext = ServiceContext<CatalogDatabase, CatalogConfig, CatalogState>;
export type CatalogRoutes = ServiceRoutes<CatalogDatabase, CatalogConfig, CatalogState>;

/** The instance's state (defineService's `setup`). */
export const setupCatalog = (
  ctx: ServiceContext<CatalogDatabase, CatalogConfig>,
): CatalogState => ({
  graph: new GraphCache(ctx.db),
  scorecards: scorecardEvaluations(ctx),
});
