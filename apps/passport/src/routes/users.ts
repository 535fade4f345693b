import {
  conflict,
  describeIdentity,
  ok,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
} from '@platform/core';
import { auditTrail } from '../auth/audit.js';
import { forgetCredentials } from '../auth/resolver.js';
import type { PassportConfig } from '../config.js';
import type { PassportDatabase } from '../database.js';
import { findPerson, listPeople, setRole } from '../repositories/users.js';
import {
  RoleInputSchema,
  UserListQuery,
  UserParams,
  UserSchema,
  type User,
} from '../schemas/users.js';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** People and their roles: admins read and change them (issue 31). */
export const userRoutes: ServiceRoutes<PassportDatabase, PassportConfig> = async (app, ctx) => {
  const { db, config } = ctx;
  const audited = auditTrail(ctx);
  const READ: Access = { resource: 'passport.user', action: 'read', rule: 'admin' };
  const CHANGE: Access = { resource: 'passport.role', action: 'manage', rule: 'admin' };

  const toUser = (row: {
    email: string;
    role: string | null;
    updated_by: string | null;
    updated_at: Date | null;
    signed_in?: Date | null;
  }): User => {
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

  app.get(
    '/users',
    {
      config: { access: READ },
      schema: {
        operationId: 'listUsers',
        summary: 'People and their roles',
        description:
          'Everyone who signed in or was given a role, by email; role and email (one person) filter. Admins only. A member of an AUTH_ADMIN_GROUPS group is an admin at each request whatever is shown here.',
        querystring: UserListQuery,
        response: responses({ 200: Type.Array(UserSchema) }),
      },
    },
    async ({ query }) => {
      const users = (await listPeople(db, query)).map(toUser);
      return ok(query.role ? users.filter((user) => user.role === query.role) : users);
    },
  );

  app.put(
    '/users/:email/role',
    {
      config: { access: CHANGE },
      schema: {
        operationId: 'setUserRole',
        summary: "Change a person's role",
        description:
          "Admins only. In force from the person's next request (their sessions and keys included), and audited (user.role.changed). 409 for an admin by AUTH_ADMINS: change the variable instead.",
        params: UserParams,
        body: RoleInputSchema,
        response: responses({ 200: UserSchema }),
      },
    },
    async (request) => {
      const email = request.params.email.toLowerCase();
      const { role } = request.body;
      if (config.admins.includes(email))
        throw conflict(`${email} is an admin by AUTH_ADMINS: change that variable instead`);
      const before = await findPerson(db, email);
      const actor = describeIdentity(request.identity);
      const row = await audited(
        {
          action: 'user.role.changed',
          actor,
          resource: `user:${email}`,
          metadata: { from: before?.role ?? config.defaultRole, to: role },
        },
        (trx) => setRole(trx, email, role, actor),
      );
      forgetCredentials();
      return ok(toUser(row));
    },
  );
};
