import {
  conflict,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase, StageDb } from '../database.js';
import {
  appOfSession,
  deleteApp,
  findApp,
  insertApp,
  listApps,
  publishSession,
  updateApp,
} from '../repositories/apps.js';
import { useSession } from '../repositories/sessions.js';
import {
  AppCreateSchema,
  AppListQuery,
  AppParams,
  AppSchema,
  AppUpdateSchema,
  PublishSchema,
  type RepositoryInput,
} from '../schemas/apps.js';
import { SessionParams } from '../schemas/sessions.js';
import { toApp } from '../views.js';

/** A session serves one app at most: a second is a 409 naming the first. */
async function freeSession(db: StageDb, sessionId: string, sid?: string) {
  await useSession(db, sessionId);
  const serving = await appOfSession(db, sessionId);
  if (serving && serving.session_id === sessionId && serving.sid !== sid)
    throw conflict(`Session ${sessionId} serves the app ${serving.name} (${serving.sid}) already`);
}

const linked = (repo: RepositoryInput) => ({
  provider: repo.provider,
  owner: repo.owner,
  name: repo.name,
  fullName: repo.fullName ?? `${repo.owner}/${repo.name}`,
  url: repo.url,
  visibility: repo.visibility ?? 'private',
  defaultBranch: repo.defaultBranch ?? 'main',
  remoteName: repo.remoteName ?? 'origin',
  linkedAt: Date.now(),
});

export const appRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  app.post(
    '/apps',
    {
      schema: {
        operationId: 'createApp',
        summary: 'Publish a session as an app',
        description:
          'A new app (sid of 8 characters) serving the session: its last good render at /app/<sid>/, its workflows at /api/v1/run/<sid>/<workflow>. 409 when the name is taken in any case or the session serves another app.',
        body: AppCreateSchema,
        response: responses({ 201: AppSchema }),
      },
    },
    async (request, reply) => {
      const { sessionId, name, title, description, config } = request.body;
      await freeSession(db, sessionId);
      const row = await orConflict(
        async () => {
          const created = await insertApp(db, { sid: newId(), name, session_id: sessionId });
          if (title === undefined && description === undefined && config === undefined)
            return created;
          return (await updateApp(db, created.sid, { title, description, config })) ?? created;
        },
        nameTaken('App', name, 'An'),
      );
      return reply.code(201).send(ok(toApp(row)));
    },
  );

  app.get(
    '/apps',
    {
      schema: {
        operationId: 'listApps',
        summary: 'List published apps',
        description:
          'Newest first. `sessionId` keeps the app of that session (the one it serves, or the one a studio session edits); `name` those whose name contains it, in any case.',
        querystring: AppListQuery,
        response: responses({ 200: Type.Array(AppSchema) }),
      },
    },
    async (request) => {
      const { sessionId, name, limit, offset } = request.query;
      return ok((await listApps(db, { sessionId, name }, { limit, offset })).map(toApp));
    },
  );

  app.get(
    '/apps/:sid',
    {
      schema: {
        operationId: 'getApp',
        summary: 'Get one app',
        params: AppParams,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => ok(toApp(await findApp(db, request.params.sid))),
  );

  app.get(
    '/sessions/:id/app',
    {
      schema: {
        operationId: 'getAppBySession',
        summary: 'The app of a session',
        description: 'The app it serves, or the one it edits as a studio session; 404 when none.',
        params: SessionParams,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const { id } = await useSession(db, request.params.id);
      const row = await appOfSession(db, id);
      if (!row) throw notFound('App of session', id);
      return ok(toApp(row));
    },
  );

  app.patch(
    '/apps/:sid',
    {
      schema: {
        operationId: 'updateApp',
        summary: 'Update an app',
        description:
          'Changes the fields sent: name, title, description (null clears them), config (replaced whole), repository (linkedAt set now; fullName, visibility, defaultBranch and remoteName default to owner/name, private, main and origin; null unlinks).',
        params: AppParams,
        body: AppUpdateSchema,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const { repository, ...changes } = request.body;
      const row = await orConflict(
        () =>
          updateApp(db, found.sid, {
            ...changes,
            ...(repository === undefined ? {} : { repository: repository && linked(repository) }),
          }),
        nameTaken('App', changes.name ?? found.name, 'An'),
      );
      if (!row) throw notFound('App', request.params.sid);
      return ok(toApp(row));
    },
  );

  app.post(
    '/apps/:sid/publish',
    {
      schema: {
        operationId: 'publishApp',
        summary: 'Serve a newer session',
        description:
          'The app serves `sessionId` from now on (publishedAt moves); 409 when that session serves another app.',
        params: AppParams,
        body: PublishSchema,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      await freeSession(db, request.body.sessionId, found.sid);
      const row = await orConflict(
        () => publishSession(db, found.sid, request.body.sessionId),
        `Session ${request.body.sessionId} serves another app already`,
      );
      if (!row) throw notFound('App', request.params.sid);
      return ok(toApp(row));
    },
  );

  app.delete(
    '/apps/:sid',
    {
      schema: {
        operationId: 'deleteApp',
        summary: 'Unpublish an app',
        description:
          'Answers the app as it was. Its sessions stay (and are reclaimed once unused, like any other).',
        params: AppParams,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const row = await deleteApp(db, (await findApp(db, request.params.sid)).sid);
      if (!row) throw notFound('App', request.params.sid);
      return ok(toApp(row));
    },
  );
};
