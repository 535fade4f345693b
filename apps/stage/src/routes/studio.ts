import { ok, ownershipFor, responses, Type, visibleTo, type Access } from '@platform/core';
import type { FastifyRequest } from 'fastify';
import { findApp, findAppSessionOwnership } from '../repositories/apps.js';
import { insertStudioSession, listStudioSessions } from '../repositories/sessions.js';
import { StudioCreateSchema, StudioListQuery, StudioSessionSchema } from '../schemas/apps.js';
import { ms } from '../schemas/sessions.js';
import type { StageRoutes } from '../domain/state.js';

/** Listing studio sessions: every signed-in caller, each seeing the sessions they may read. */
const LIST: Access = { resource: 'stage.session', action: 'read' };

/** `/api/v1/studio`: editing sessions bound to a published app (spec 4.2). */
export const studioRoutes: StageRoutes = async (app, { db, access }) => {
  // A studio session copies the files of the session the app serves: read rights on that one.
  const sourceSession = (request: FastifyRequest) =>
    findAppSessionOwnership(db, (request.body as { appSid?: unknown } | undefined)?.appSid);
  const CREATE: Access = {
    resource: 'stage.session',
    action: 'create',
    rule: 'owner',
    owner: sourceSession,
  };

  app.post(
    '/sessions',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createStudioSession',
        summary: 'Open a studio session on an app',
        description:
          "A new session bound to the app (sid or name), made by the caller (optional `team`), holding the current files of the session the app serves, each at version 1: the caller must be able to read that session (its creator, a collaborator, its team, or an admin). Publish it with POST /api/v1/stage/apps/<sid>/publish when done (the app's owners may).",
        body: StudioCreateSchema,
        response: responses({ 201: StudioSessionSchema }),
      },
    },
    async (request, reply) => {
      const target = await findApp(db, request.body.appSid);
      const owner = await ownershipFor(request.identity, request.body.team, access);
      const session = await insertStudioSession(
        db,
        { appSid: target.sid, ...owner },
        target.session_id,
      );
      const [listed] = await listStudioSessions(db, target.sid, { limit: 1, offset: 0 });
      return reply.code(201).send(
        ok({
          id: session.id,
          appSid: target.sid,
          createdAt: ms(session.created_at),
          lastAccessedAt: ms(session.last_accessed_at),
          fileCount: listed?.id === session.id ? Number(listed.file_count) : 0,
          createdBy: session.created_by,
          team: session.team,
        }),
      );
    },
  );

  app.get(
    '/sessions',
    {
      config: { access: LIST },
      schema: {
        operationId: 'listStudioSessions',
        summary: 'List studio sessions',
        description:
          'Newest first; `appSid` keeps only the sessions bound to that app (without it, every session bound to some app). Only the sessions the caller may read: made by them, naming them a collaborator, or of their team (admins: all).',
        querystring: StudioListQuery,
        response: responses({ 200: Type.Array(StudioSessionSchema) }),
      },
    },
    async (request) => {
      const { appSid, limit, offset } = request.query;
      const visible = await visibleTo(request.identity, access);
      const rows = await listStudioSessions(db, appSid, { limit, offset }, visible);
      return ok(
        rows.map((row) => ({
          id: row.id,
          appSid: row.app_sid as string,
          createdAt: ms(row.created_at),
          lastAccessedAt: ms(row.last_accessed_at),
          fileCount: Number(row.file_count ?? 0),
          createdBy: row.created_by,
          team: row.team,
        })),
      );
    },
  );
};
