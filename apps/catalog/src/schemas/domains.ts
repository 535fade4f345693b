import {
  Nullable,
  PagedQuery,
  RefSchema,
  StampsAt,
  stampsAt,
  TagsSchema,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { DomainRow } from '../repositories/domains.js';
import {
  Description,
  LinksSchema,
  NamespaceFilter,
  NamespaceInput,
  NamespaceShown,
  RecordName,
  Token,
} from './metadata.js';
import { OwnershipShown, shownOwnership, TeamInput } from './ownership.js';

/** Backstage's Domain: a business area (a product area, a bounded context) systems belong to. */
export const DomainInputSchema = Type.Object({
  name: RecordName('domain name'),
  namespace: NamespaceInput,
  title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  description: Type.Optional(Nullable(Description)),
  type: Type.Optional(Nullable(Token('Kind of domain: product-area, bounded-context ...'))),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
  tags: Type.Optional(TagsSchema),
  links: Type.Optional(Nullable(LinksSchema)),
  team: TeamInput,
});

export const DomainUpdateSchema = UpdateOf(DomainInputSchema);

export const DomainSchema = Type.Object({
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  type: Nullable(Type.String()),
  owner: Nullable(Type.String({ description: 'Its owner (namespace/name outside default)' })),
  tags: Type.Array(Type.String()),
  links: LinksSchema,
  ...OwnershipShown,
  ...StampsAt,
});
export type Domain = Static<typeof DomainSchema>;

export const DomainWithSystemsSchema = Type.Object({
  ...DomainSchema.properties,
  systems: Type.Array(RefSchema, { description: 'Systems of this domain' }),
});

export const DomainListQuery = PagedQuery({
  owner: Type.Optional(Type.String({ description: 'Only domains of this owner (name)' })),
  tag: Type.Optional(Type.String({ description: 'Only domains with this tag' })),
  namespace: NamespaceFilter,
});

/** The domain as shown, the stamps as ISO text. */
export const toDomain = (row: DomainRow): Domain => ({
  id: row.id,
  namespace: row.namespace,
  name: row.name,
  title: row.title,
  description: row.description,
  type: row.type,
  owner: row.owner,
  tags: row.tags,
  links: row.links,
  ...shownOwnership(row),
  ...stampsAt(row.created_at, row.updated_at),
});
