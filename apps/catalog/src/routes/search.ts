import {
  Type,
  badRequest,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  Nullable,
} from '@platform/core';
import { sql } from '@platform/db';
import type { CatalogDb } from '../repository.js';
import {} from './schemas.js';

/** How a service matched, best first; the README documents the order. */
export const MATCHES = [
  'name',
  'name-prefix',
  'name-contains',
  'tag',
  'tag-contains',
  'description',
] as const;

const Hit = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  match: Type.Enum([...MATCHES], {
    description: 'What matched, best first: ' + MATCHES.join(', '),
  }),
});

export const searchRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogDb }> = async (
  app,
  { catalog },
) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Search services by name, tag and description',
        description:
          'Case-insensitive; ranked: exact name, name prefix, name contains, exact tag, tag contains, description contains; ties by name.',
        querystring: Type.Object({
          q: Type.String({
            maxLength: 200,
            title: 'the search term',
            description: 'The search term',
          }),
          limit: Type.Integer({
            minimum: 1,
            maximum: 1000,
            default: 20,
            description: 'Hits (1-1000)',
          }),
        }),
        response: responses({ 200: Type.Array(Hit) }),
      },
    },
    async (request) => {
      const q = request.query.q.trim().toLowerCase();
      if (q === '') throw badRequest('q (the search term) must not be empty');
      const tag = (test: ReturnType<typeof sql<boolean>>) =>
        sql<boolean>`exists (select 1 from jsonb_array_elements_text(s.tags) as t(tag) where ${test})`;
      const rank = sql<number>`case
        when lower(s.name) = ${q} then 0
        when starts_with(lower(s.name), ${q}) then 1
        when strpos(lower(s.name), ${q}) > 0 then 2
        when ${tag(sql<boolean>`lower(t.tag) = ${q}`)} then 3
        when ${tag(sql<boolean>`strpos(lower(t.tag), ${q}) > 0`)} then 4
        when strpos(lower(coalesce(s.description, '')), ${q}) > 0 then 5
      end`;
      const rows = await catalog
        .selectFrom((db) =>
          db
            .selectFrom('services as s')
            .select(['s.id', 's.name', 's.description', 's.tags', rank.as('rank')])
            // A cheap test first, so that only candidates are ranked (tags as their JSON text).
            .where(
              sql<boolean>`strpos(lower(s.name || ' ' || s.tags::text || ' ' || coalesce(s.description, '')), ${q}) > 0`,
            )
            .as('hits'),
        )
        .selectAll()
        .where('rank', 'is not', null)
        .orderBy('rank')
        .orderBy(sql`lower(name)`)
        .limit(request.query.limit)
        .execute();
      return ok(rows.map(({ rank: r, ...hit }) => ({ ...hit, match: MATCHES[r] })));
    },
  );
};
