import { ok, responses, type ServiceRoutes } from '@platform/core';
import type { StageDatabase } from '../database.js';
import type { StageConfig } from '../config.js';
import { listFiles } from '../repositories/files.js';
import { findRenderState } from '../repositories/renders.js';
import { insertSession, setGoogleScopes, useSession } from '../repositories/sessions.js';
import {
  CreatedSessionSchema,
  ScopesSchema,
  SessionParams,
  StatusSchema,
} from '../schemas/sessions.js';
import { ms, toRenderState, toSession } from '../views.js';

export const sessionRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  app.post(
    '/sessions',
    {
      schema: {
        operationId: 'createSession',
        summary: 'Create a session',
        description: 'An empty session of files; no body. Answers its id.',
        response: responses({ 201: CreatedSessionSchema }),
      },
    },
    async (_request, reply) => {
      const row = await insertSession(db);
      return reply.code(201).send(ok({ id: row.id, createdAt: ms(row.created_at) }));
    },
  );

  app.get(
    '/sessions/:id/status',
    {
      schema: {
        operationId: 'getStatus',
        summary: 'Status of a session',
        description:
          'The session (times in epoch ms), its render state (version 0 and nulls before the first render) and its current files by path.',
        params: SessionParams,
        response: responses({ 200: StatusSchema }),
      },
    },
    async (request) => {
      const session = await useSession(db, request.params.id);
      const [render, files] = await Promise.all([
        findRenderState(db, session.id),
        listFiles(db, session.id),
      ]);
      return ok({
        session: toSession(session),
        render: toRenderState(render),
        files: files.map(({ path, version, size }) => ({ path, version, size })),
      });
    },
  );

  app.put(
    '/sessions/:id/google-scopes',
    {
      schema: {
        operationId: 'setGoogleScopes',
        summary: "Set the session's Google scopes",
        description:
          'The OAuth scopes its workflows ask Google for (https scope URLs, or openid, email, profile); replaces the stored list.',
        params: SessionParams,
        body: ScopesSchema,
        response: responses({ 200: ScopesSchema }),
      },
    },
    async (request) => {
      const scopes = [...new Set(request.body.scopes)];
      const row = await setGoogleScopes(db, (await useSession(db, request.params.id)).id, scopes);
      return ok({ scopes: row?.google_scopes ?? scopes });
    },
  );

  app.get(
    '/sessions/:id/google-scopes',
    {
      schema: {
        operationId: 'getGoogleScopes',
        summary: "The session's Google scopes",
        params: SessionParams,
        response: responses({ 200: ScopesSchema }),
      },
    },
    async (request) => ok({ scopes: (await useSession(db, request.params.id)).google_scopes }),
  );
};
