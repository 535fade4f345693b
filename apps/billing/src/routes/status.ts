import { ok, responses, type ServiceRoutes } from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase } from '../database.js';
import { countStored } from '../repositories/status.js';
import { StatusSchema } from '../schemas/status.js';

export const statusRoutes: ServiceRoutes<BillingDatabase, BillingConfig> = async (
  app,
  { db, config, storage },
) => {
  app.get(
    '/status',
    {
      schema: {
        operationId: 'getStatus',
        summary: 'State of the billing service',
        description: 'totalAmount counts the items in the configured currency (cents).',
        response: responses({ 200: StatusSchema }),
      },
    },
    async () => {
      const stored = await countStored(db, config.currency);
      return ok({
        initialized: true,
        config: { version: 1, currency: config.currency },
        totalItems: stored.items,
        totalCategories: stored.categories,
        totalSyncJobs: stored.syncJobs,
        totalAmount: stored.totalAmount,
        currency: config.currency,
        storageType: storage,
      });
    },
  );
};
