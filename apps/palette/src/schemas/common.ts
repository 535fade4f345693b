import { Nullable, PagedQuery, stamps, Type, unique } from '@platform/core';

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

/** A record as the API shows it: its columns as they are, the stamps as ISO text. */
export const toRecord = <R extends { created: Date; updated: Date; created_by: string | null }>({
  created,
  updated,
  created_by,
  ...columns
}: R) => ({ ...columns, createdBy: created_by, ...stamps(created, updated) });

/** The fields every kind of record but tokens takes, as a body sends them. */
interface NamedFields {
  name?: string;
  category?: string | null;
  description?: string | null;
  tags?: string[];
}

/** The columns of these fields on a create: those left out empty, tags without repeats. */
export const newNamedColumns = ({ name, ...body }: NamedFields & { name: string }) => ({
  name,
  category: body.category ?? null,
  description: body.description ?? null,
  tags: unique(body.tags ?? []),
});

/** The columns of these fields on an update: those left out undefined (kept), tags without repeats. */
export const namedChanges = ({ name, category, description, tags }: NamedFields) => ({
  name,
  category,
  description,
  tags: tags && unique(tags),
});
