import {
  conflict,
  creatorOf,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  ownershipFor,
  responses,
  Type,
  type Access,
  type Identity,
} from '@platform/core';
import type { FastifyRequest } from 'fastify';
import { appOwner, appsSeenBy, requireSessionOwnership, sessionAccess } from '../domain/access.js';
import type { StageDb } from '../database/index.js';
import {
  appOfSession,
  deleteApp,
  findApp,
  insertApp,
  listApps,
  publishSession,
  updateApp,
} from '../repositories/apps.js';
import { findSessionOwnership, useSession } from '../repositories/sessions.js';
import {
  AppCreateSchema,
  AppListQuery,
  AppParams,
  AppSchema,
  AppUpdateSchema,
  PublishSchema,
  type RepositoryInput,
  toApp,
} from '../schemas/apps.js';
import { originsFor } from '../domain/origins.js';
import { SessionParams } from '../schemas/sessions.js';
import { schedulesOf } from '../domain/backends/schedule-config.js';
import { syncSchedules } from '../repositories/schedules.js';
import type { StageRoutes } from '../domain/state.js';

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

/** Published apps are shared knowledge: any signed-in caller lists and reads them. */
const READ: Access = { resource: 'stage.app', action: 'read' };

/**
 * Who publishes or changes an app (its backend's calls act for them from then on) and the role
 * its backend may use: theirs, never admin.
 */
const publisherOf = (identity: Identity) => ({
  email: creatorOf(identity),
  role: (identity.kind === 'user' || identity.kind === 'key') && identity.role === 'viewer' ? ('viewer' as const) : ('member' as const), // prettier-ignore
});

export const appRoutes: StageRoutes = async (app, ctx) => {
  const { db, access, config: stageConfig } = ctx;
  const originOf = (request: FastifyRequest) => originsFor(request, stageConfig.origins).app;
  const sessionInBody = (request: FastifyRequest) =>
    findSessionOwnership(db, (request.body as { sessionId?: unknown } | undefined)?.sessionId);
  // Publishing a session needs its ownership; changing an app, the app's.
  const CREATE: Access = {
    resource: 'stage.app',
    action: 'create',
    rule: 'owner',
    owner: sessionInBody,
  };
  const owner = appOwner(db);
  const UPDATE: Access = { resource: 'stage.app', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'stage.app', action: 'delete', rule: 'owner', owner };
  const session = sessionAccess(db);

  app.post(
    '/apps',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createApp',
        summary: 'Publish a session as an app',
        description:
          'A new app (sid of 8 characters) serving the session: its last good render at /app/<sid>/, its workflows at /api/v1/run/<sid>/<workflow>. The caller must own the session (its creator, a collaborator, its team, or an admin); the app records the caller as createdBy and the optional `team`. 409 when the name is taken in any case or the session serves another app.',
        body: AppCreateSchema,
        response: responses({ 201: AppSchema }),
      },
    },
    async (request, reply) => {
      const { sessionId, name, team, ...fields } = request.body;
      const publisher = await ownershipFor(request.identity, team, access);
      const schedules = schedulesOf(fields.config, stageConfig.backends); // 400 before writing
      await freeSession(db, sessionId);
      const row = await orConflict(
        async () => {
          const created = await insertApp(db, {
            sid: newId(),
            name,
            session_id: sessionId,
            created_by: publisher.createdBy,
            team: publisher.team,
          });
          const changes = { ...fields, publisher: publisherOf(request.identity) };
          return (await updateApp(db, created.sid, changes)) ?? created;
        },
        nameTaken('App', name, 'An'),
      );
      if (schedules) await syncSchedules(db, row.sid, schedules);
      return reply.code(201).send(ok(toApp(row, true, originOf(request))));
    },
  );

  app.get(
    '/apps',
    {
      config: { access: READ },
      schema: {
        operationId: 'listApps',
        summary: 'List published apps',
        description:
          "Newest first. `sessionId` keeps the app of that session (the one it serves, or the one a studio session edits); `name` those whose name contains it, in any case. Each app's sessionId is null unless the caller may read that session.",
        querystring: AppListQuery,
        response: responses({ 200: Type.Array(AppSchema) }),
      },
    },
    async (request) => {
      const { sessionId, name, limit, offset } = request.query;
      const rows = await listApps(db, { sessionId, name }, { limit, offset });
      return ok(await appsSeenBy(db, request.identity, access, rows, originOf(request)));
    },
  );

  app.get(
    '/apps/:sid',
    {
      config: { access: READ },
      schema: {
        operationId: 'getApp',
        summary: 'Get one app',
        description:
          'With createdBy and team (who may change it); sessionId is null unless the caller may read that session.',
        params: AppParams,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const row = await findApp(db, request.params.sid);
      const [seen] = await appsSeenBy(db, request.identity, access, [row], originOf(request));
      return ok(seen);
    },
  );

  app.get(
    '/sessions/:id/app',
    {
      config: { access: session.read },
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
      return ok(toApp(row, true, originOf(request)));
    },
  );

  app.patch(
    '/apps/:sid',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateApp',
        summary: 'Update an app',
        description:
          "Changes the fields sent: name, title, description (null clears them), config (replaced whole; its `schedules` are the app's cron schedules, 400 naming an invalid expression: see GET /apps/:sid/schedules), repository (linkedAt set now; fullName, visibility, defaultBranch and remoteName default to owner/name, private, main and origin; null unlinks), team (one the caller is in; null clears it). The app's owners (createdBy, team) and admins may.",
        params: AppParams,
        body: AppUpdateSchema,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const { repository, team, ...changes } = request.body;
      const owner = team ? await ownershipFor(request.identity, team, access) : undefined;
      const schedules = schedulesOf(changes.config, stageConfig.backends); // 400 before writing
      const row = await orConflict(
        () =>
          updateApp(db, found.sid, {
            ...changes,
            publisher: publisherOf(request.identity),
            ...(team === undefined ? {} : { team: owner?.team ?? null }),
            ...(repository === undefined ? {} : { repository: repository && linked(repository) }),
          }),
        nameTaken('App', changes.name ?? found.name, 'An'),
      );
      if (!row) throw notFound('App', request.params.sid);
      if (schedules) await syncSchedules(db, row.sid, schedules);
      const [seen] = await appsSeenBy(db, request.identity, access, [row], originOf(request));
      return ok(seen);
    },
  );

  app.post(
    '/apps/:sid/publish',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'publishApp',
        summary: 'Serve a newer session',
        description:
          "The app serves `sessionId` from now on (publishedAt moves). The app's owners and admins may, with a session they own (403 otherwise); 409 when that session serves another app.",
        params: AppParams,
        body: PublishSchema,
        response: responses({ 200: AppSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      await requireSessionOwnership(request, db, access, request.body.sessionId);
      await freeSession(db, request.body.sessionId, found.sid);
      const row = await orConflict(async () => {
        await updateApp(db, found.sid, { publisher: publisherOf(request.identity) });
        return publishSession(db, found.sid, request.body.sessionId);
      }, `Session ${request.body.sessionId} serves another app already`);
      if (!row) throw notFound('App', request.params.sid);
      return ok(toApp(row, true, originOf(request)));
    },
  );

  app.delete(
    '/apps/:sid',
    {
      config: { access: DELETE },
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
      const [seen] = await appsSeenBy(db, request.identity, access, [row], originOf(request));
      return ok(seen);
    },
  );
};
