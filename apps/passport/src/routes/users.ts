import { conflict, describeIdentity, ok, responses, Type, type Access } from '@platform/core';
import { forgetCredentials } from '../domain/resolver.js';
import { findPerson, listPeople, setRole } from '../repositories/users.js';
import {
  RoleInputSchema,
  UserListQuery,
  UserParams,
  toUser,
  UserSchema,
} from '../schemas/users.js';
import type { PassportRoutes } from '../domain/state.js';

/** People and their roles: admins read and change them (issue 31). */
export const userRoutes: PassportRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  const { audited } = ctx.state;
  const READ: Access = { resource: 'passport.user', action: 'read', rule: 'admin' };
  const CHANGE: Access = { resource: 'passport.role', action: 'manage', rule: 'admin' };

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
      const users = (await listPeople(db, query)).map((row) => toUser(row, config));
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
      return ok(toUser(row, config));
    },
  );
};
