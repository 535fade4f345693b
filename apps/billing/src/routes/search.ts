import { badRequest, ok, responses, Type, type ServiceRoutes } from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase } from '../database.js';
import { toItem } from '../mappers.js';
import { searchItems } from '../repositories/items.js';
import { ItemSchema, SearchQuery } from '../schemas/items.js';

export const searchRoutes: ServiceRoutes<BillingDatabase, BillingConfig> = async (app, { db }) => {
  app.get(
    '/search',
    {
      schema: {
        operationId: 'search',
        summary: 'Search items by name, description, provider, category and tags',
        description:
          'Case-insensitive; name matches first (exact, prefix, contains), then the rest; newest first within a rank.',
        querystring: SearchQuery,
        response: responses({ 200: Type.Array(ItemSchema) }),
      },
    },
    async (request) => {
      const term = request.query.q.trim().toLowerCase();
      if (term === '') throw badRequest('q (the search term) must not be empty');
      const rows = await searchItems(db, term, request.query.limit);
      return ok(rows.map(toItem));
    },
  );
};
