import {
  Name,
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
import { Description } from './metadata.js';
import { OwnershipShown, shownOwnership, TeamInput } from './ownership.js';

export const SystemInputSchema = Type.Object({
  name: Name('system name'),
  description: Type.Optional(Nullable(Description)),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
  tags: Type.Optional(TagsSchema),
  team: TeamInput,
});

export const SystemUpdateSchema = UpdateOf(SystemInputSchema);

export const SystemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
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
});

/** The system as shown, the stamps as ISO text. */
export const toSystem = (row: SystemRow): System => ({
  id: row.id,
  name: row.name,
  description: row.description,
  owner: row.owner,
  tags: row.tags,
  ...shownOwnership(row),
  ...stampsAt(row.created_at, row.updated_at),
});
