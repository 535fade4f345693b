import { IdOrNameParams, ok, responses, type Access } from '@platform/core';
import { overviewOf } from '../domain/overview/index.js';
import type { CatalogRoutes } from '../domain/state.js';
import { OverviewSchema } from '../schemas/overview.js';

/** A catalog service as the place to look (issue 39): everything the platform knows of it. */
export const overviewRoutes: CatalogRoutes = async (app, ctx) => {
  const READ: Access = { resource: 'catalog.service', action: 'read' };

  app.get(
    '/services/:idOrName/overview',
    {
      config: { access: READ },
      schema: {
        operationId: 'getServiceOverview',
        summary: "A service's overview: owner, dependencies, spend, repositories, audit, usage",
        description:
          'The service with its owner, dependencies (one step, both ways) and scorecard results, and what the other services know of it, each asked for the caller and within CATALOG_OVERVIEW_TIMEOUT_MS: spend this month and its trend, budgets and open anomalies (billing), repositories (git), recent audit events (ledger, admins only) and usage (pulse). A part that cannot be had is `{ available: false, reason }` (the service is off, unreachable, too slow, or the caller may not read it there) and the rest answers 200.',
        params: IdOrNameParams,
        response: responses({ 200: OverviewSchema }),
      },
    },
    async (request) => ok(await overviewOf(ctx, request.identity, request.params.idOrName)),
  );
};
