import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { CatalogDatabase } from '../database.js';
import { GraphCache } from './graph/cache.js';

/** What each instance of the catalog builds once, at start-up, for its routes. */
export interface CatalogState {
  /** The dependency graph in memory, read again whenever what it is made of changed. */
  graph: GraphCache;
}

export type CatalogContext = ServiceContext<CatalogDatabase, undefined, CatalogState>;
export type CatalogRoutes = ServiceRoutes<CatalogDatabase, undefined, CatalogState>;

/** The instance's state (defineService's `setup`). */
export const setupCatalog = ({ db }: ServiceContext<CatalogDatabase>): CatalogState => ({
  graph: new GraphCache(db),
});
