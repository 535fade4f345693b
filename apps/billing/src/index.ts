import { join } from 'node:path';
import type { ServiceManifest } from '@platform/core';
import { adapters } from './adapters/index.js';
import { BILLING_VARIABLES, billingConfig } from './config.js';
import { migrations } from './migrations/index.js';
import { SCHEMA, type BillingDatabase } from './repository.js';
import { categoryRoutes } from './routes/categories.js';
import { itemRoutes } from './routes/items.js';
import { reportRoutes } from './routes/reports.js';
import { statusRoutes } from './routes/status.js';
import { syncRoutes } from './routes/sync.js';

export { BILLING_VARIABLES, billingConfig } from './config.js';

/** Billing: spending items in cents, categories, reports, search, provider sync (spec 2.6, 4.6). */
export const billing: ServiceManifest = {
  name: SCHEMA,
  title: 'Billing',
  prefix: '/api/v1/billing',
  version: '0.1.0',
  defaultPort: 3106,
  migrations,
  webRoot: join(__dirname, '..', 'web'),
  variables: BILLING_VARIABLES,
  config: billingConfig,
  async plugin(app, { db, env }) {
    const config = billingConfig(env);
    const schema = db.schema<BillingDatabase>(SCHEMA);
    await app.register(itemRoutes, { billing: schema, config });
    await app.register(categoryRoutes, { billing: schema });
    await app.register(reportRoutes, { billing: schema, config });
    await app.register(statusRoutes, { billing: schema, config, storageType: db.kind });
    await app.register(syncRoutes, { billing: schema, adapters: adapters(config) });
  },
};

export default billing;
