import { Name, Nullable, RefSchema, StampsAt, Type, type Static } from '@platform/core';
import { Description } from './common.js';

export const SystemInputSchema = Type.Object({
  name: Name('system name'),
  description: Type.Optional(Nullable(Description)),
});
export type SystemInput = Static<typeof SystemInputSchema>;

export const SystemUpdateSchema = Type.Partial(SystemInputSchema);
export type SystemUpdate = Static<typeof SystemUpdateSchema>;

export const SystemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  ...StampsAt,
});
export type System = Static<typeof SystemSchema>;

export const SystemWithServicesSchema = Type.Object({
  ...SystemSchema.properties,
  services: Type.Array(RefSchema, { description: 'Services of this system' }),
});
