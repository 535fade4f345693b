import {
  Nullable,
  PagedQuery,
  RefSchema,
  StampsAt,
  stampsAt,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { OwnerRow } from '../repositories/owners.js';
import {
  Description,
  NamespaceFilter,
  NamespaceInput,
  NamespaceShown,
  RecordName,
} from './metadata.js';
import { CreatedBy, MembersInput } from './ownership.js';

/** An owner is a group of people (the default) or one person; a group can sit under a parent group. */
export const OWNER_KINDS = ['group', 'user'] as const;

export const OwnerInputSchema = Type.Object({
  name: RecordName('owner name'),
  namespace: NamespaceInput,
  type: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Group type: team, department ...',
      }),
    ),
  ),
  description: Type.Optional(Nullable(Description)),
  picture: Type.Optional(
    Nullable(
      Type.String({ maxLength: 2048, pattern: '^https?://', description: 'Profile picture URL' }),
    ),
  ),
  email: Type.Optional(
    Nullable(Type.String({ format: 'email', maxLength: 254, description: 'Contact address' })),
  ),
  team: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 100, description: 'Display name (not ownership)' }),
    ),
  ),
  kind: Type.Optional(
    Type.Enum(OWNER_KINDS, { default: 'group', description: 'group (default) or user' }),
  ),
  parent: Type.Optional(
    Nullable(Type.String({ description: 'Name (or id) of the parent group; groups only' })),
  ),
  members: Type.Optional(MembersInput),
});

export const OwnerUpdateSchema = UpdateOf(OwnerInputSchema);

export const OwnerSchema = Type.Object({
  id: Type.String(),
  namespace: NamespaceShown,
  name: Type.String(),
  type: Nullable(Type.String({ description: "A group's type (Backstage's spec.type)" })),
  description: Nullable(Type.String()),
  picture: Nullable(Type.String({ description: 'Profile picture URL' })),
  email: Nullable(Type.String()),
  team: Nullable(Type.String({ description: 'Display name' })),
  kind: Type.Enum(OWNER_KINDS),
  parent: Nullable(Type.String({ description: 'Name of the parent group' })),
  members: Type.Array(Type.String(), { description: 'Emails of the people in this team' }),
  createdBy: CreatedBy,
  ...StampsAt,
});
export type Owner = Static<typeof OwnerSchema>;

export const OwnerWithServicesSchema = Type.Object({
  ...OwnerSchema.properties,
  services: Type.Array(RefSchema, { description: 'Services of this owner' }),
  children: Type.Array(RefSchema, { description: 'Groups whose parent this group is' }),
  users: Type.Array(RefSchema, {
    description: "A group's members in the catalog (Backstage's hasMember): users and groups",
  }),
  memberOf: Type.Array(RefSchema, { description: 'The groups it is a member of (memberOf)' }),
});

export const OwnerListQuery = PagedQuery({
  kind: Type.Optional(Type.Enum(OWNER_KINDS, { description: 'Only groups or only users' })),
  parent: Type.Optional(Type.String({ description: 'Only the children of this group (name)' })),
  member: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'Only the owners with this email among their members (any case): its teams',
    }),
  ),
  namespace: NamespaceFilter,
});

/** The owner as shown (its `team` is a display name), the stamps as ISO text. */
export const toOwner = (row: OwnerRow): Owner => ({
  id: row.id,
  namespace: row.namespace,
  name: row.name,
  type: row.type,
  description: row.description,
  picture: row.picture,
  email: row.email,
  team: row.team,
  kind: row.kind,
  parent: row.parent,
  members: row.members,
  createdBy: row.created_by,
  ...stampsAt(row.created_at, row.updated_at),
});
