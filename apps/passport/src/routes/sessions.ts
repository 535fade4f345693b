import { notFound, ok, responses, Type, visibleTo, type Access } from '@platform/core';
import { describeIdentity } from '@platform/core';
import { findSession, listSessions, revokeSession } from '../repositories/sessions.js';
import { SessionListQuery, SessionParams, SessionSchema, toSession } from '../schemas/sessions.js';
import { forgetCredentials } from '../domain/resolver.js';
import type { PassportRoutes } from '../domain/state.js';

export const sessionRoutes: PassportRoutes = async (app, ctx) => {
  const { db } = ctx;
  const { audited } = ctx.state;
  // A person's own sessions (an admin's: everyone's); through an API key, only with scope admin.
  const LIST: Access = { resource: 'passport.session', action: 'read', scope: 'admin' };
  const END: Access = {
    resource: 'passport.session',
    action: 'delete',
    rule: 'owner',
    scope: 'admin',
    owner: async (request) => {
      const row = await findSession(db, (request.params as { id: string }).id);
      return row && { createdBy: row.email, team: null };
    },
  };

  app.get(
    '/sessions',
    {
      config: { access: LIST },
      schema: {
        operationId: 'listSessions',
        summary: 'List sign-in sessions, newest first',
        description:
          'Never the token. Filters email (any case) and active. An admin sees every session, anyone else only their own (the email filter is then theirs).',
        querystring: SessionListQuery,
        response: responses({ 200: Type.Array(SessionSchema) }),
      },
    },
    async ({ query, identity }) => {
      const visible = await visibleTo(identity, ctx.access);
      // Not an admin: only the caller's own (a key's: its owner's; a team key has none).
      const email = visible ? (visible.creators[0] ?? '') : query.email;
      const rows = await listSessions(db, { email, active: query.active }, query);
      return ok(rows.map((row) => toSession(row)));
    },
  );

  app.delete(
    '/sessions/:id',
    {
      config: { access: END },
      schema: {
        operationId: 'deleteSession',
        summary: 'End a session now',
        description:
          'The session stops working at once (its next request is 401); answers it as it is now, revokedAt set. Ending an ended one changes nothing. An admin may end any session, anyone else only their own.',
        params: SessionParams,
        response: responses({ 200: SessionSchema }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const existing = await findSession(db, id);
      if (!existing) throw notFound('Session', id);
      const row = await audited(
        {
          action: 'session.revoked',
          actor: describeIdentity(request.identity),
          resource: `session:${id}`,
          metadata: { email: existing.email },
        },
        (trx) => revokeSession(trx, id),
      );
      forgetCredentials();
      if (!row) throw notFound('Session', id);
      return ok(toSession(row));
    },
  );
};
