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
import type { SystemRow } from '../repositories/systems.js';
import {
  Description,
  NamespaceFilter,
  NamespaceInput,
  NamespaceShown,
  RecordName,
} from './metadata.js';
import { OwnershipShown, shownOwnership, TeamInput } from './ownership.js';

export const SystemInputSchema = Type.Object({
  name: RecordName('system name'),
  namespace: NamespaceInput,
  domain: Type.Optional(
    Nullable(Type.String({ description: 'Name (namespace/name) or id of an existing domain' })),
  ),
  description: Type.Optional(Nullable(Description)),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
  tags: Type.Optional(TagsSchema),
  team: TeamInput,
});

export const SystemUpdateSchema = UpdateOf(SystemInputSchema);

export const SystemSchema = Type.Object({
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  domain: Nullable(Type.String({ description: 'Its domain (namespace/name outside default)' })),
  description: Nullable(Type.String()),
  owner: Nullable(Type.String({ description: 'Name of its owner' })),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...StampsAt,
});
export type System = Static<typeof SystemSchema>;

export const SystemWithServicesSchema = Type.Object({
  ...SystemSchema.properties,
  services: Type.Array(RefSchema, { description: 'Services of this system' }),
});

export const SystemListQuery = PagedQuery({
  owner: Type.Optional(Type.String({ description: 'Only systems of this owner (name)' })),
  tag: Type.Optional(Type.String({ description: 'Only systems with this tag' })),
  domain: Type.Optional(Type.String({ description: 'Only systems of this domain (name)' })),
  namespace: NamespaceFilter,
});

/** The system as shown, the stamps as ISO text. */
export const toSystem = (row: SystemRow): System => ({
  id: row.id,
  namespace: row.namespace,
  name: row.name,
  domain: row.domain,
  description: row.description,
  owner: row.owner,
  tags: row.tags,
  ...shownOwnership(row),
  ...stampsAt(row.created_at, row.updated_at),
});
