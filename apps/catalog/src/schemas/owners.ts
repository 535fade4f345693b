import { Name, Nullable, RefSchema, StampsAt, Type, type Static } from '@platform/core';

export const OwnerInputSchema = Type.Object({
  name: Name('owner name'),
  email: Type.Optional(
    Nullable(Type.String({ format: 'email', maxLength: 254, description: 'Contact address' })),
  ),
  team: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
});
export type OwnerInput = Static<typeof OwnerInputSchema>;

export const OwnerUpdateSchema = Type.Partial(OwnerInputSchema);
export type OwnerUpdate = Static<typeof OwnerUpdateSchema>;

export const OwnerSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  team: Nullable(Type.String()),
  ...StampsAt,
});
export type Owner = Static<typeof OwnerSchema>;

export const OwnerWithServicesSchema = Type.Object({
  ...OwnerSchema.properties,
  services: Type.Array(RefSchema, { description: 'Services of this owner' }),
});
