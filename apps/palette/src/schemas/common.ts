import { Nullable, PagedQuery, Type } from '@platform/core';

/** Free text, such as a description. */
export const Text = (maxLength = 2000) => Type.String({ maxLength });

export { TagsSchema as Tags } from '@platform/core';

/** The optional category of a component, pattern, standard or rule. */
export const CategoryInput = Nullable(Type.String({ minLength: 1, maxLength: 100 }));

/** Ids or names of linked records, as a body sends them. */
export const Refs = (maxItems: number, description: string) =>
  Type.Array(Type.String(), { maxItems, description });

/** The query of a list by name, filtered by category and tag. */
export const NamedListQuery = PagedQuery({
  category: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});

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

/** What every record shows of who owns it. */
export const OwnershipShown = {
  createdBy: Nullable(
    Type.String({
      description:
        'Who made it: an email, or key:<name> for a team key; null when made before owners were recorded',
    }),
  ),
  team: Nullable(Type.String({ description: 'The team (a catalog owner) that owns it' })),
};
