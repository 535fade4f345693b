import { Name, Nullable, StampsAt, stampsAt, Type, type Static, UpdateOf } from '@platform/core';
import { Owned, Team } from './items.js';
import type { CategoryRow } from '../database.js';

export const CategoryInputSchema = Type.Object({
  name: Name('category name'),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  color: Type.Optional(
    Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' })),
  ),
  team: Type.Optional(Team),
});
export const CategoryUpdateSchema = UpdateOf(CategoryInputSchema);

export const CategorySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Nullable(Type.String({ description: '#rrggbb, lower case' })),
  ...Owned,
  ...StampsAt,
});
export type Category = Static<typeof CategorySchema>;

export const toCategory = (row: CategoryRow): Category => ({
  ...row,
  color: row.color?.toLowerCase() ?? null,
  createdBy: row.created_by,
  ...stampsAt(row.created_at, row.updated_at),
});
