import { Nullable, Type, type Static } from '@platform/core';

/** How a record matched, best first; the README documents the order. */
export const MATCHES = [
  'name',
  'name-prefix',
  'name-contains',
  'name-words',
  'tag',
  'tag-contains',
  'description',
  'words',
] as const;

/** What search looks through. */
export const KINDS = ['service', 'system', 'owner', 'api'] as const;

export const SearchQuery = Type.Object({
  q: Type.String({ maxLength: 200, title: 'the search term', description: 'The search term' }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'Hits (1-1000)' }),
  kind: Type.Optional(Type.Enum(KINDS, { description: 'Only hits of this kind' })),
});

export const SearchHitSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  kind: Type.Enum(KINDS, { description: 'What the hit is: ' + KINDS.join(', ') }),
  match: Type.Enum(MATCHES, { description: 'What matched, best first: ' + MATCHES.join(', ') }),
});
export type SearchHit = Static<typeof SearchHitSchema>;
