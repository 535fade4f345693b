import { join } from 'node:path';
import { defineService } from '@platform/core';
import { BILLING_VARIABLES, billingConfig, type BillingConfig } from './config.js';
import type { BillingDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { categoryRoutes } from './routes/categories.js';
import { itemRoutes } from './routes/items.js';
import { reportRoutes } from './routes/reports.js';
import { syncRoutes } from './routes/sync.js';
import { syncJobRoutes } from './routes/sync-jobs.js';
import { billingState, type BillingState } from './domain/state.js';

export { BILLING_VARIABLES, billingConfig, type BillingConfig } from './config.js';

/** Billing: spending items in cents, categories, reports, search, provider sync (spec 2.6, 4.6). */
export const billing = defineService<BillingDatabase, BillingConfig, BillingState>({
  name: 'billing',
  title: 'Billing',
  root: join(__dirname, '..'),
  defaultPort: 3106,
  migrations,
  variables: BILLING_VARIABLES,
  config: billingConfig,
  setup: billingState,
  routes: [itemRoutes, categoryRoutes, reportRoutes, syncRoutes, syncJobRoutes],
});

export default billing;
