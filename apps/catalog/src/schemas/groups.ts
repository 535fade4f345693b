import {
  Name,
  Nullable,
  PagedQuery,
  RefSchema,
  StampsAt,
  TagsSchema,
  Type,
  type TSchema,
  UpdateOf,
} from '@platform/core';
import { CreatedBy, MembersInput, OwnershipShown, TeamInput } from './ownership.js';

/** Free text describing a service, a system or an API. */
export const Description = Type.String({ maxLength: 2000 });

type Properties = Record<string, TSchema>;

/**
 * The schemas of a group (systems, owners): a named record with optional fields of its own,
 * `fields` as received (null clears one), `shown` as answered, `links` the lists of related
 * records a get adds, and `filters` of its list.
 */
function groupSchemas(
  noun: string,
  fields: Properties,
  shown: Properties,
  links: Properties,
  filters: Properties,
) {
  const Record = Type.Object({ id: Type.String(), name: Type.String(), ...shown, ...StampsAt });
  const Input = Type.Object({ name: Name(`${noun} name`), ...fields });
  const services = Type.Array(RefSchema, { description: `Services of this ${noun}` });
  return {
    Record,
    WithServices: Type.Object({ ...Record.properties, services, ...links }),
    Input,
    Update: UpdateOf(Input),
    ListQuery: PagedQuery(filters),
  };
}
export type GroupSchemas = ReturnType<typeof groupSchemas>;

export const SystemSchemas = groupSchemas(
  'system',
  {
    description: Type.Optional(Nullable(Description)),
    owner: Type.Optional(
      Nullable(Type.String({ description: 'Name (or id) of an existing owner' })),
    ),
    tags: Type.Optional(TagsSchema),
    team: TeamInput,
  },
  {
    description: Nullable(Type.String()),
    owner: Nullable(Type.String({ description: 'Name of its owner' })),
    tags: Type.Array(Type.String()),
    ...OwnershipShown,
  },
  {},
  {
    owner: Type.Optional(Type.String({ description: 'Only systems of this owner (name)' })),
    tag: Type.Optional(Type.String({ description: 'Only systems with this tag' })),
  },
);

/** An owner is a group of people (the default) or one person; a group can sit under a parent group. */
export const OWNER_KINDS = ['group', 'user'] as const;

export const OwnerSchemas = groupSchemas(
  'owner',
  {
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
  },
  {
    email: Nullable(Type.String()),
    team: Nullable(Type.String({ description: 'Display name' })),
    kind: Type.Enum(OWNER_KINDS),
    parent: Nullable(Type.String({ description: 'Name of the parent group' })),
    members: Type.Array(Type.String(), { description: 'Emails of the people in this team' }),
    createdBy: CreatedBy,
  },
  { children: Type.Array(RefSchema, { description: 'Groups whose parent this group is' }) },
  {
    kind: Type.Optional(Type.Enum(OWNER_KINDS, { description: 'Only groups or only users' })),
    parent: Type.Optional(Type.String({ description: 'Only the children of this group (name)' })),
    member: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description: 'Only the owners with this email among their members (any case): its teams',
      }),
    ),
  },
);
