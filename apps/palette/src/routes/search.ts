import {
  Type,
  badRequest,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  Nullable,
} from '@platform/core';
import { sql } from '@platform/db';
import { SCHEMA, type PaletteDb } from '../repository.js';
import { tags } from './common.js';

/** Kinds of result and the table each comes from. */
export const KINDS = {
  token: 'tokens',
  component: 'components',
  pattern: 'patterns',
  standard: 'standards',
  rule: 'rules',
} as const;
type Kind = keyof typeof KINDS;

/** Points per match, summed: name matches count above any description or tag match. */
export const SCORES = {
  nameExact: 100,
  namePrefix: 60,
  nameContains: 40,
  tag: 15,
  description: 10,
} as const;

const Result = Type.Object({
  kind: Type.Enum(Object.keys(KINDS) as Kind[]),
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  score: Type.Number(),
});

export const searchRoutes: FastifyPluginAsyncTypebox<{ palette: PaletteDb }> = async (
  app,
  { palette },
) => {
  app.get(
    '/search',
    {
      schema: {
        tags,
        summary: 'Search every kind of record',
        description: `Case-insensitive. Score: exact name ${SCORES.nameExact}, else name prefix ${SCORES.namePrefix}, else name contains ${SCORES.nameContains}; plus ${SCORES.tag} for a tag containing the term and ${SCORES.description} for the description containing it. Best first, then by name.`,
        querystring: Type.Object({
          q: Type.String({ maxLength: 200, title: 'the search term' }),
          kind: Type.Optional(Type.Enum(Object.keys(KINDS) as Kind[])),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
        }),
        response: responses({
          200: Type.Object({
            query: Type.String(),
            count: Type.Integer(),
            results: Type.Array(Result),
          }),
        }),
      },
    },
    async (request) => {
      const query = request.query.q.trim();
      const q = query.toLowerCase();
      if (q === '') throw badRequest('q (the search term) must not be empty');
      const kinds = request.query.kind ? [request.query.kind] : (Object.keys(KINDS) as Kind[]);
      const scored = kinds.map(
        (kind) => sql`
          select ${kind}::text as kind, id, name, description,
            (case when lower(name) = ${q} then ${SCORES.nameExact}
                  when starts_with(lower(name), ${q}) then ${SCORES.namePrefix}
                  when strpos(lower(name), ${q}) > 0 then ${SCORES.nameContains} else 0 end
             + case when strpos(lower(tags::text), ${q}) > 0 then ${SCORES.tag} else 0 end
             + case when strpos(lower(coalesce(description, '')), ${q}) > 0 then ${SCORES.description} else 0 end
            )::int as score
          from ${sql.table(`${SCHEMA}.${KINDS[kind]}`)}`,
      );
      const { rows } = await sql<{
        kind: Kind;
        id: string;
        name: string;
        description: string | null;
        score: number;
      }>`
        select * from (${sql.join(scored, sql` union all `)}) as hits
        where score > 0
        order by score desc, lower(name), kind
        limit ${request.query.limit}`.execute(palette);
      return ok({ query, count: rows.length, results: rows });
    },
  );
};
