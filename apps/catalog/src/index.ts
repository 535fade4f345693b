import { join } from 'node:path';
import { defineService } from '@platform/core';
import { SCHEMA, type CatalogDatabase } from './database.js';
import { setupCatalog, type CatalogState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { apiRoutes } from './routes/apis.js';
import { dependencyRoutes } from './routes/dependencies.js';
import { domainRoutes } from './routes/domains.js';
import { importRoutes } from './routes/import.js';
import { ownerRoutes } from './routes/owners.js';
import { searchRoutes } from './routes/search.js';
import { serviceRoutes } from './routes/services.js';
import { systemRoutes } from './routes/systems.js';
import { templateRoutes } from './routes/templates.js';

/** Service catalog: services, APIs, systems, owners, the dependency graph, search (spec 2.4, 4.4). */
export const catalog = defineService<CatalogDatabase, undefined, CatalogState>({
  name: SCHEMA,
  title: 'Service catalog',
  root: join(__dirname, '..'),
  defaultPort: 3104,
  migrations,
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
  ],
});

export default catalog;
