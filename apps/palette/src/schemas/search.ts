import { Nullable, Type } from '@platform/core';

/** Kinds of result and the table each comes from. */
export const KINDS = {
  token: 'tokens',
  component: 'components',
  pattern: 'patterns',
  standard: 'standards',
  rule: 'rules',
} as const;
export type Kind = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as Kind[];

/** Points per match, summed: name matches count above any description or tag match. */
export const SCORES = {
  nameExact: 100,
  namePrefix: 60,
  nameContains: 40,
  tag: 15,
  description: 10,
} as const;

export const SearchQuery = Type.Object({
  q: Type.String({ maxLength: 200, title: 'the search term' }),
  kind: Type.Optional(Type.Enum(KIND_NAMES)),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
});

const SearchResultSchema = Type.Object({
  kind: Type.Enum(KIND_NAMES),
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  score: Type.Number(),
});

export const SearchResultsSchema = Type.Object({
  query: Type.String(),
  count: Type.Integer(),
  results: Type.Array(SearchResultSchema),
});
