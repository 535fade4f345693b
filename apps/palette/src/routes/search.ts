import { badRequest, ok, responses, type Access, type ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { searchRecords } from '../repositories/search.js';
import { KIND_NAMES, SCORES, SearchQuery, SearchResultsSchema } from '../schemas/search.js';

/** Shared knowledge: any signed-in caller searches. */
const READ: Access = { resource: 'palette.search', action: 'read' };

export const searchRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  app.get(
    '/search',
    {
      config: { access: READ },
      schema: {
        operationId: 'search',
        summary: 'Search every kind of record',
        description: `Case-insensitive. Score: exact name ${SCORES.nameExact}, else name prefix ${SCORES.namePrefix}, else name contains ${SCORES.nameContains}; plus ${SCORES.tag} for a tag containing the term and ${SCORES.description} for the description containing it. Best first, then by name.`,
        querystring: SearchQuery,
        response: responses({ 200: SearchResultsSchema }),
      },
    },
    async (request) => {
      const query = request.query.q.trim();
      if (query === '') throw badRequest('q (the search term) must not be empty');
      const kinds = request.query.kind ? [request.query.kind] : KIND_NAMES;
      const results = await searchRecords(db, query, kinds, request.query.limit);
      return ok({ query, count: results.length, results });
    },
  );
};
