import { Name, Nullable, StampsAt, Type, type Static } from '@platform/core';

const Fields = {
  name: Name('category name'),
  description: Nullable(Type.String({ maxLength: 2000 })),
  color: Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' })),
};

export const CategoryInputSchema = Type.Object({
  name: Fields.name,
  description: Type.Optional(Fields.description),
  color: Type.Optional(Fields.color),
});
export const CategoryUpdateSchema = Type.Partial(CategoryInputSchema);

export const CategorySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Nullable(Type.String({ description: '#rrggbb, lower case' })),
  ...StampsAt,
});
export type Category = Static<typeof CategorySchema>;
