import {
  Nullable,
  PagedQuery,
  StampsAt,
  stampsAt,
  Type,
  type Static,
  TagsSchema,
} from '@platform/core';
import {
  AnnotationsSchema,
  Description,
  LinksSchema,
  NamespaceFilter,
  NamespaceInput,
  NamespaceShown,
  RecordName,
  Token,
} from './metadata.js';
import type { ServiceWithLinks } from '../repositories/services.js';
import { OwnershipShown, shownOwnership, TeamInput } from './ownership.js';

const ApiRefs = (what: string) =>
  Type.Array(Type.String({ minLength: 1 }), {
    maxItems: 1000,
    description: `Ids or names of the APIs it ${what}; replaces them`,
  });

/** Fields a service takes on create and on update alike (null clears one). */
const ServiceFields = {
  description: Type.Optional(Nullable(Description)),
  tags: Type.Optional(TagsSchema),
  system: Type.Optional(
    Nullable(Type.String({ description: 'Name (or id) of an existing system' })),
  ),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
  type: Type.Optional(Nullable(Token('Kind of component: service, website, library ...'))),
  lifecycle: Type.Optional(Nullable(Token('Stage: experimental, production, deprecated ...'))),
  links: Type.Optional(Nullable(LinksSchema)),
  annotations: Type.Optional(Nullable(AnnotationsSchema)),
  providesApis: Type.Optional(ApiRefs('provides')),
  consumesApis: Type.Optional(ApiRefs('consumes')),
  team: TeamInput,
  namespace: NamespaceInput,
};

export const ServiceInputSchema = Type.Object({
  name: RecordName('service name'),
  ...ServiceFields,
});

export const ServiceUpdateSchema = Type.Object({
  name: Type.Optional(RecordName('service name')),
  ...ServiceFields,
  dependencies: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 1000,
      description: 'Replaces the dependencies: ids or names of other services',
    }),
  ),
});

export const ServiceSchema = Type.Object({
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  kind: Type.Enum(['component', 'resource'] as const, {
    description: 'The Backstage kind it is (component unless imported as a Resource)',
  }),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  system: Nullable(Type.String({ description: 'Name of its system' })),
  owner: Nullable(Type.String({ description: 'Name of its owner' })),
  type: Nullable(Type.String()),
  lifecycle: Nullable(Type.String()),
  links: LinksSchema,
  annotations: AnnotationsSchema,
  dependencies: Type.Array(Type.String(), { description: 'Ids of the services it depends on' }),
  providesApis: Type.Array(Type.String(), { description: 'Ids of the APIs it provides' }),
  consumesApis: Type.Array(Type.String(), { description: 'Ids of the APIs it consumes' }),
  ...OwnershipShown,
  ...StampsAt,
});
export type Service = Static<typeof ServiceSchema>;

export const ServiceListQuery = PagedQuery({
  system: Type.Optional(Type.String({ description: 'Only services of this system (name)' })),
  owner: Type.Optional(Type.String({ description: 'Only services of this owner (name)' })),
  tag: Type.Optional(Type.String({ description: 'Only services with this tag' })),
  type: Type.Optional(Type.String({ description: 'Only services of this type (any case)' })),
  lifecycle: Type.Optional(
    Type.String({ description: 'Only services at this lifecycle (any case)' }),
  ),
  namespace: NamespaceFilter,
});

/** The service as shown (the reply keeps only the fields of ServiceSchema). */
export const toService = (row: ServiceWithLinks): Service => ({
  ...row,
  ...shownOwnership(row),
  ...stampsAt(row.created_at, row.updated_at),
});
