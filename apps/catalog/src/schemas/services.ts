import {
  Name,
  Nullable,
  PagedQuery,
  StampsAt,
  Type,
  type Static,
  TagsSchema,
} from '@platform/core';
import { Description } from './groups.js';

export const ServiceInputSchema = Type.Object({
  name: Name('service name'),
  description: Type.Optional(Nullable(Description)),
  tags: Type.Optional(TagsSchema),
  system: Type.Optional(
    Nullable(Type.String({ description: 'Name (or id) of an existing system' })),
  ),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
});

export const ServiceUpdateSchema = Type.Object({
  name: Type.Optional(Name('service name')),
  description: Type.Optional(Nullable(Description)),
  tags: Type.Optional(TagsSchema),
  system: Type.Optional(Nullable(Type.String())),
  owner: Type.Optional(Nullable(Type.String())),
  dependencies: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 1000,
      description: 'Replaces the dependencies: ids or names of other services',
    }),
  ),
});

export const ServiceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  system: Nullable(Type.String({ description: 'Name of its system' })),
  owner: Nullable(Type.String({ description: 'Name of its owner' })),
  dependencies: Type.Array(Type.String(), { description: 'Ids of the services it depends on' }),
  ...StampsAt,
});
export type Service = Static<typeof ServiceSchema>;

export const ServiceListQuery = PagedQuery({
  system: Type.Optional(Type.String({ description: 'Only services of this system (name)' })),
  owner: Type.Optional(Type.String({ description: 'Only services of this owner (name)' })),
  tag: Type.Optional(Type.String({ description: 'Only services with this tag' })),
});
