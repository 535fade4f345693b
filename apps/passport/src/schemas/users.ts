import { IsoTimestamp, Nullable, PagedQuery, ROLES, Type, type Static } from '@platform/core';

export const RoleSchema = Type.Enum(ROLES, { description: 'viewer, member or admin' });

export const UserSchema = Type.Object({
  email: Type.String(),
  role: RoleSchema,
  source: Type.Enum(['config', 'set', 'default'] as const, {
    description:
      'config: an admin by AUTH_ADMINS or AUTH_ADMIN_GROUPS (cannot be changed here); set: an admin set it; default: AUTH_DEFAULT_ROLE',
  }),
  updatedBy: Nullable(Type.String({ description: 'Who set the role last' })),
  updatedAt: Nullable(IsoTimestamp),
  lastSignInAt: Nullable(IsoTimestamp),
});
export type User = Static<typeof UserSchema>;

export const UserParams = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254, description: "The person's email" }),
});

export const RoleInputSchema = Type.Object({ role: RoleSchema });

export const UserListQuery = PagedQuery({
  role: Type.Optional(RoleSchema),
  email: Type.Optional(
    Type.String({ minLength: 3, maxLength: 254, description: 'This person only (any case)' }),
  ),
});
