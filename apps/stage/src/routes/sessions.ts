import { ok, ownershipFor, responses, type Access } from '@platform/core';
import { sessionAccess } from '../domain/access.js';
import { originsFor } from '../domain/origins.js';
import { binaryMark } from '../domain/file-encoding.js';
import { listFiles } from '../repositories/files.js';
import { findRenderState } from '../repositories/renders.js';
import {
  insertSession,
  setCollaborators,
  setGoogleScopes,
  useSession,
} from '../repositories/sessions.js';
import {
  CollaboratorsBody,
  CreatedSessionSchema,
  CreateSessionSchema,
  ms,
  ScopesSchema,
  SessionAccessSchema,
  SessionParams,
  StatusSchema,
  toRenderState,
  toSession,
} from '../schemas/sessions.js';
import type { StageRoutes } from '../domain/state.js';

const CREATE: Access = { resource: 'stage.session', action: 'create' };

export const sessionRoutes: StageRoutes = async (app, { db, access, config }) => {
  const session = sessionAccess(db);
  const MANAGE: Access = { ...session.update, action: 'manage' };

  app.post(
    '/sessions',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createSession',
        summary: 'Create a session',
        description:
          'An empty session of files, made by the caller; an optional body `{ team }` names its team (a catalog owner the caller is in). Answers its id.',
        body: CreateSessionSchema,
        response: responses({ 201: CreatedSessionSchema }),
      },
      // The body is optional: none at all is `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const owner = await ownershipFor(request.identity, request.body?.team, access);
      const row = await insertSession(db, owner);
      return reply.code(201).send(ok({ id: row.id, createdAt: ms(row.created_at) }));
    },
  );

  app.get(
    '/sessions/:id/status',
    {
      config: { access: session.read },
      schema: {
        operationId: 'getStatus',
        summary: 'Status of a session',
        description:
          'The session (times in epoch ms, who owns it), its render state (version 0 and nulls before the first render) and its current files by path (size in bytes; binary files marked `binary: true`).',
        params: SessionParams,
        response: responses({ 200: StatusSchema }),
      },
    },
    async (request) => {
      const found = await useSession(db, request.params.id);
      const [render, files] = await Promise.all([
        findRenderState(db, found.id),
        listFiles(db, found.id),
      ]);
      return ok({
        origin: originsFor(request, config.origins).preview(found.id),
        session: toSession(found),
        render: toRenderState(render),
        files: files.map(({ path, version, size, binary }) => ({
          path,
          version,
          size,
          ...binaryMark(binary),
        })),
      });
    },
  );

  app.put(
    '/sessions/:id/collaborators',
    {
      config: { access: MANAGE },
      schema: {
        operationId: 'setCollaborators',
        summary: "Set the session's collaborators",
        description:
          'The people (emails) who may read and change the session as its creator does; replaces the list (lower case, repeats dropped). Its owners (creator, collaborators, team) and admins may.',
        params: SessionParams,
        body: CollaboratorsBody,
        response: responses({ 200: SessionAccessSchema }),
      },
    },
    async (request) => {
      const emails = [...new Set(request.body.emails.map((email) => email.toLowerCase()))];
      const found = await useSession(db, request.params.id);
      const row = (await setCollaborators(db, found.id, emails)) ?? found;
      return ok({ createdBy: row.created_by, team: row.team, collaborators: row.collaborators });
    },
  );

  app.put(
    '/sessions/:id/google-scopes',
    {
      config: { access: session.update },
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
      config: { access: session.read },
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
