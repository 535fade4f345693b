import { IsoTimestamp, Nullable, PagedQuery, ROLES, Type, type Static } from '@platform/core';
import type { PassportConfig } from '../config.js';

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

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A person as GET /users shows them: the role the variables give wins over the one set. */
export const toUser = (
  row: {
    email: string;
    role: string | null;
    updated_by: string | null;
    updated_at: Date | null;
    signed_in?: Date | null;
  },
  config: Pick<PassportConfig, 'admins' | 'defaultRole'>,
): User => {
  const byConfig = config.admins.includes(row.email);
  return {
    email: row.email,
    role: byConfig ? 'admin' : ((row.role as User['role'] | null) ?? config.defaultRole),
    source: byConfig ? 'config' : row.role ? 'set' : 'default',
    updatedBy: row.updated_by,
    updatedAt: iso(row.updated_at),
    lastSignInAt: iso(row.signed_in),
  };
};

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
