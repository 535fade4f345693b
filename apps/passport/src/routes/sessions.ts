import { notFound, ok, responses, Type, type ServiceRoutes } from '@platform/core';
import { auditTrail } from '../auth/audit.js';
import { adminCheck, forbidden, sameEmail } from '../auth/permissions.js';
import type { PassportConfig } from '../config.js';
import type { PassportDatabase, SessionRow } from '../database.js';
import { describeIdentity } from '@platform/core';
import { findSession, listSessions, revokeSession } from '../repositories/sessions.js';
import {
  SessionListQuery,
  SessionParams,
  SessionSchema,
  type Session,
} from '../schemas/sessions.js';
import { forgetCredentials } from '../auth/resolver.js';

const toSession = (row: SessionRow, now = Date.now()): Session => ({
  id: row.id,
  email: row.email,
  name: row.name,
  subject: row.subject,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  lastSeenAt: row.last_seen_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
  active: row.revoked_at === null && row.expires_at.getTime() > now,
});

export const sessionRoutes: ServiceRoutes<PassportDatabase, PassportConfig> = async (app, ctx) => {
  const { db, config, auth } = ctx;
  const audited = auditTrail(ctx);
  const isAdmin = adminCheck(db, config, auth);

  app.get(
    '/sessions',
    {
      schema: {
        operationId: 'listSessions',
        summary: 'List sign-in sessions, newest first',
        description:
          'Never the token. Filters email (any case) and active. An admin sees every session, a signed-in user only their own (403 for another email); 403 for a key that is not an admin.',
        querystring: SessionListQuery,
        response: responses({ 200: Type.Array(SessionSchema) }),
      },
    },
    async ({ query, identity }) => {
      let email = query.email;
      if (!(await isAdmin(identity))) {
        if (identity.kind !== 'user')
          throw forbidden(`${describeIdentity(identity)} may not list sessions: only an admin`);
        if (email !== undefined && !sameEmail(email, identity.email))
          throw forbidden('Only an admin may list the sessions of another user');
        email = identity.email;
      }
      const rows = await listSessions(db, { email, active: query.active }, query);
      return ok(rows.map((row) => toSession(row)));
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        operationId: 'deleteSession',
        summary: 'End a session now',
        description:
          "The session stops working at once (its next request is 401); answers it as it is now, revokedAt set. Ending an ended one changes nothing. An admin may end any session, a signed-in user only their own (404 for another's); 403 for a key that is not an admin.",
        params: SessionParams,
        response: responses({ 200: SessionSchema }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { identity } = request;
      const admin = await isAdmin(identity);
      if (!admin && identity.kind !== 'user')
        throw forbidden(`${describeIdentity(identity)} may not end sessions: only an admin`);
      const existing = await findSession(db, id);
      if (!existing) throw notFound('Session', id);
      if (!admin && identity.kind === 'user' && !sameEmail(existing.email, identity.email))
        throw notFound('Session', id);
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
