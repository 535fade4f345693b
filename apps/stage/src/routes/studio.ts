import { ok, responses, Type, type ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';
import { findApp } from '../repositories/apps.js';
import { insertStudioSession, listStudioSessions } from '../repositories/sessions.js';
import { StudioCreateSchema, StudioListQuery, StudioSessionSchema } from '../schemas/apps.js';
import { ms } from '../views.js';

/** `/api/v1/studio`: editing sessions bound to a published app (spec 4.2). */
export const studioRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  app.post(
    '/sessions',
    {
      schema: {
        operationId: 'createStudioSession',
        summary: 'Open a studio session on an app',
        description:
          'A new session bound to the app (sid or name), holding the current files of the session the app serves, each at version 1. Publish it with POST /api/v1/stage/apps/<sid>/publish when done.',
        body: StudioCreateSchema,
        response: responses({ 201: StudioSessionSchema }),
      },
    },
    async (request, reply) => {
      const target = await findApp(db, request.body.appSid);
      const session = await insertStudioSession(db, target.sid, target.session_id);
      const [listed] = await listStudioSessions(db, target.sid, { limit: 1, offset: 0 });
      return reply.code(201).send(
        ok({
          id: session.id,
          appSid: target.sid,
          createdAt: ms(session.created_at),
          lastAccessedAt: ms(session.last_accessed_at),
          fileCount: listed?.id === session.id ? Number(listed.file_count) : 0,
        }),
      );
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        operationId: 'listStudioSessions',
        summary: 'List studio sessions',
        description:
          'Newest first; `appSid` keeps only the sessions bound to that app (without it, every session bound to some app).',
        querystring: StudioListQuery,
        response: responses({ 200: Type.Array(StudioSessionSchema) }),
      },
    },
    async (request) => {
      const { appSid, limit, offset } = request.query;
      const rows = await listStudioSessions(db, appSid, { limit, offset });
      return ok(
        rows.map((row) => ({
          id: row.id,
          appSid: row.app_sid as string,
          createdAt: ms(row.created_at),
          lastAccessedAt: ms(row.last_accessed_at),
          fileCount: Number(row.file_count ?? 0),
        })),
      );
    },
  );
};
