import { join } from 'node:path';
import { defineService } from '@platform/core';
import { CATALOG_VARIABLES, catalogConfig, type CatalogConfig } from './config.js';
import { SCHEMA, type CatalogDatabase } from './database.js';
import { setupCatalog, type CatalogState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { apiRoutes } from './routes/apis.js';
import { dependencyRoutes } from './routes/dependencies.js';
import { domainRoutes } from './routes/domains.js';
import { importRoutes } from './routes/import.js';
import { overviewRoutes } from './routes/overview.js';
import { ownerRoutes } from './routes/owners.js';
import { scorecardRoutes } from './routes/scorecards.js';
import { searchRoutes } from './routes/search.js';
import { serviceRoutes } from './routes/services.js';
import { systemRoutes } from './routes/systems.js';
import { templateRoutes } from './routes/templates.js';

/** Service catalog: services, APIs, systems, owners, the dependency graph, search (spec 2.4, 4.4). */
export const catalog = defineService<CatalogDatabase, CatalogConfig, CatalogState>({
  name: SCHEMA,
  title: 'Service catalog',
  root: join(__dirname, '..'),
  defaultPort: 3104,
  migrations,
  variables: CATALOG_VARIABLES,
  config: catalogConfig,
  setup: setupCatalog,
  routes: [
    serviceRoutes,
    dependencyRoutes,
    apiRoutes,
    systemRoutes,
    ownerRoutes,
    searchRoutes,
    importRoutes,
    domainRoutes,
    templateRoutes,
    overviewRoutes,
    scorecardRoutes,
  ],
  jobs: ({ config, state }) => [
    {
      name: 'scorecards',
      intervalMs: config.scorecardIntervalMs,
      task: (signal) => state.scorecards.all(signal),
    },
  ],
});

export default catalog;
