import { Name, Nullable, PagedQuery, {{Stamps}}, Type, type Static } from '@platform/core';

const Description = Type.String({
  maxLength: 2000,
  title: 'description',
  description: 'Free text, up to 2000 characters',
});

export const ItemSchema = Type.Object({
  id: Type.String({ description: '8 random characters' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  ...{{Stamps}},
});
export type Item = Static<typeof ItemSchema>;

export const ItemInputSchema = Type.Object({
  name: Name('item name'),
  description: Type.Optional(Nullable(Description)),
});

export const ItemUpdateSchema = Type.Object({
  name: Type.Optional(Name('item name')),
  description: Type.Optional(Nullable(Description)),
});

export const ItemListQuery = PagedQuery({
  name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only the items whose name contains this, in any case',
    }),
  ),
});
