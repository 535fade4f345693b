import { join } from 'node:path';
import type { ServiceManifest } from '@platform/core';
import { migrations } from './migrations/index.js';
import { SCHEMA, type CatalogDatabase } from './repository.js';
import { depsRoutes } from './routes/deps.js';
import { ownerRoutes, systemRoutes } from './routes/groups.js';
import { searchRoutes } from './routes/search.js';
import { serviceRoutes } from './routes/services.js';

/** Service catalog: services, systems, owners, the dependency graph, search (spec 2.4, 4.4). */
export const catalog: ServiceManifest = {
  name: SCHEMA,
  title: 'Service catalog',
  prefix: '/api/v1/catalog',
  version: '0.1.0',
  defaultPort: 3104,
  migrations,
  webRoot: join(__dirname, '..', 'web'),
  async plugin(app, { db }) {
    const schema = db.schema<CatalogDatabase>(SCHEMA);
    for (const routes of [serviceRoutes, systemRoutes, ownerRoutes, depsRoutes, searchRoutes])
      await app.register(routes, { catalog: schema });
  },
};

export default catalog;
