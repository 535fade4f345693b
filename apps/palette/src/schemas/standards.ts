import { Name, Nullable, Stamps, Type, type Static } from '@platform/core';
import type { StandardRow } from '../database.js';
import { CategoryInput, OwnershipShown, Tags, TeamInput, Text, toRecord } from './common.js';

export const StandardInputSchema = Type.Object({
  name: Name('standard name'),
  category: Type.Optional(CategoryInput),
  description: Type.Optional(Nullable(Text())),
  guidelines: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 200 }),
  ),
  tags: Type.Optional(Tags),
  team: TeamInput,
});

export const StandardSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  guidelines: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...Stamps,
});
export type Standard = Static<typeof StandardSchema>;

/** The standard as shown. */
export const toStandard = (row: StandardRow): Standard => toRecord(row);
