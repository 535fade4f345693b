import { badRequest, ok, responses, Type, type ServiceRoutes } from '@platform/core';
import type { CatalogDatabase } from '../database.js';
import { searchServices } from '../repositories/search.js';
import { MATCHES, SearchHitSchema, SearchQuery, type SearchHit } from '../schemas/search.js';

export const searchRoutes: ServiceRoutes<CatalogDatabase> = async (app, { db }) => {
  app.get(
    '/search',
    {
      schema: {
        operationId: 'search',
        summary: 'Search services by name, tag and description',
        description:
          'Case-insensitive; ranked: exact name, name prefix, name contains, exact tag, tag contains, description contains; ties by name.',
        querystring: SearchQuery,
        response: responses({ 200: Type.Array(SearchHitSchema) }),
      },
    },
    async (request) => {
      const term = request.query.q.trim().toLowerCase();
      if (term === '') throw badRequest('q (the search term) must not be empty');
      const rows = await searchServices(db, term, request.query.limit);
      return ok(rows.map(({ rank, ...hit }): SearchHit => ({ ...hit, match: MATCHES[rank] })));
    },
  );
};
