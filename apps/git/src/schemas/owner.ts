import { Nullable, Type } from '@platform/core';

/** The team a create names: a catalog owner the caller is in (admins: any). */
export const Team = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'A team (a catalog owner) whose members own it too; you must be in it (admins: any)',
  }),
);

/** Who owns a provider or a repository connection, as the API shows it (read-only). */
export const Owned = {
  createdBy: Nullable(
    Type.String({
      description:
        'Who made it: an email, or key:<name> for a team key; null: no one (made before ownership existed; admins only)',
    }),
  ),
  team: Nullable(Type.String({ description: 'The team whose members own it too' })),
};
