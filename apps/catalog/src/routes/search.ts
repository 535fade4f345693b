import { badRequest, ok, responses, Type, type Access } from '@platform/core';
import type { CatalogRoutes } from '../domain/state.js';
import { search } from '../repositories/search.js';
import { MATCHES, SearchHitSchema, SearchQuery, type SearchHit } from '../schemas/search.js';

/** Shared knowledge: any signed-in caller searches. */
const READ: Access = { resource: 'catalog.search', action: 'read' };

export const searchRoutes: CatalogRoutes = async (app, { db }) => {
  app.get(
    '/search',
    {
      config: { access: READ },
      schema: {
        operationId: 'search',
        summary: 'Search services, systems, owners and APIs',
        description:
          'Case-insensitive; several words match in any order. Ranked: exact name, name prefix, name contains, every word in the name, exact tag, tag contains, description contains, every word somewhere; ties by name.',
        querystring: SearchQuery,
        response: responses({ 200: Type.Array(SearchHitSchema) }),
      },
    },
    async (request) => {
      const phrase = request.query.q.trim().toLowerCase().replace(/\s+/g, ' ');
      if (phrase === '') throw badRequest('q (the search term) must not be empty');
      const words = [...new Set(phrase.split(' '))];
      const { limit, kind } = request.query;
      const rows = await search(db, phrase, words, limit, kind);
      return ok(rows.map(({ rank, ...hit }) => ({ ...hit, match: MATCHES[rank] }) as SearchHit));
    },
  );
};
