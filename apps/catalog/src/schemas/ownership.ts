import { Nullable, Type } from '@platform/core';

/** The team a create or an update names: a team the caller is in (admins: any); null clears it. */
export const TeamInput = Type.Optional(
  Nullable(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The team (a catalog owner, by name) that owns it with its creator: its members may change it. Only a team the caller is in (admins: any); null clears it',
    }),
  ),
);

export const CreatedBy = Nullable(
  Type.String({
    description:
      'Who made it: an email, or key:<name> for a team key; null when made before owners were recorded',
  }),
);

/** What every owned record shows of who owns it. */
export const OwnershipShown = {
  createdBy: CreatedBy,
  team: Nullable(Type.String({ description: 'The team (a catalog owner) that owns it' })),
};

/** What an owned record shows of its ownership columns. */
export const shownOwnership = (row: { created_by: string | null; team: string | null }) => ({
  createdBy: row.created_by,
  team: row.team,
});

/** At most this many members an owner has. */
export const MAX_MEMBERS = 1000;

export const MembersInput = Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
  maxItems: MAX_MEMBERS,
  description:
    'Emails of the people in this team (stored in lower case, repeats dropped); replaces them. Members may change the owner record and what its team owns',
});
