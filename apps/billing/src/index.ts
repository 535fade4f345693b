import { join } from 'node:path';
import { defineService } from '@platform/core';
import { BILLING_VARIABLES, billingConfig, type BillingConfig } from './config.js';
import type { BillingDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { refreshCatalog } from './domain/owners.js';
import { anomalyRoutes } from './routes/anomalies.js';
import { budgetRoutes } from './routes/budgets.js';
import { categoryRoutes } from './routes/categories.js';
import { forecastRoutes } from './routes/forecast.js';
import { itemRoutes } from './routes/items.js';
import { ownerRoutes } from './routes/owners.js';
import { allocationRoutes } from './routes/owners-allocations.js';
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
  routes: [
    itemRoutes,
    categoryRoutes,
    reportRoutes,
    syncRoutes,
    syncJobRoutes,
    budgetRoutes,
    anomalyRoutes,
    forecastRoutes,
    ownerRoutes,
    allocationRoutes,
  ],
  jobs: ({ config, state, db, platform, log }) => [
    {
      // The catalog's services read again, items re-resolved when they changed (domain/owners.ts).
      name: 'catalog-snapshot',
      intervalMs: config.catalogRefreshMs,
      task: (signal) => refreshCatalog(db, platform, log, signal),
    },
    {
      // Budgets evaluated, their new alerts claimed, the pending ones sent (domain/budgets*.ts).
      name: 'budgets',
      intervalMs: config.budgets.intervalMs,
      task: () => state.alerts.budgets(),
    },
    {
      // Daily spend per catalog service and provider checked for anomalies (domain/anomalies.ts).
      name: 'anomalies',
      intervalMs: config.anomalies.intervalMs,
      task: () => state.alerts.anomalies(),
    },
  ],
});

export default billing;
