import {
  describeIdentity,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  ownershipFor,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { FastifyRequest } from 'fastify';
import { gitAccess, repositoryOwner } from '../domain/access.js';
import type { RepositoryRow } from '../database.js';
import type { RepoMetadata } from '../domain/backends/backend.js';
import { findProvider, localProviderIds } from '../repositories/providers.js';
import {
  deleteRepository,
  findRepository,
  insertRepository,
  listRepositories,
  updateMetadata,
} from '../repositories/repos.js';
import { RepoInputSchema, RepoListQuery, RepoSchema, UserBody, toRepo } from '../schemas/repos.js';
import { cloneUrl } from '../schemas/smart.js';
import type { GitRoutes } from '../domain/state.js';

const columns = (meta: RepoMetadata) => ({
  html_url: meta.htmlUrl,
  default_branch: meta.defaultBranch,
  private: meta.private,
  status: meta.status,
});

export const repoRoutes: GitRoutes = async (app, ctx) => {
  const { db } = ctx;
  const access = gitAccess(ctx, app);
  /** Where git clients reach the platform: GIT_PUBLIC_URL, else the request's own origin. */
  const origin = (request: FastifyRequest) =>
    ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
  /**
   * Repositories as the reader sees them: a local one's clone URL is made now, from the reader's
   * own origin (never stored: a Host header sent by whoever connected it would be shown to all).
   */
  const present = async (request: FastifyRequest, rows: RepositoryRow[]) => {
    const local = await localProviderIds(db);
    return rows.map((row) =>
      toRepo(
        local.has(row.provider_id)
          ? { ...row, html_url: cloneUrl(origin(request), row.owner, row.repo_name) }
          : row,
      ),
    );
  };
  const presentOne = async (request: FastifyRequest, row: RepositoryRow) =>
    (await present(request, [row]))[0];
  // Anyone signed in sees the connections; members connect; the connection's owners (its
  // creator, its team, admins) change or remove it.
  const READ: Access = { resource: 'git.repository', action: 'read' };
  const CONNECT: Access = { resource: 'git.repository', action: 'create' };
  const owner = repositoryOwner(ctx);
  const SYNC: Access = { resource: 'git.repository', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'git.repository', action: 'delete', rule: 'owner', owner };

  app.get(
    '/repos',
    {
      config: { access: READ },
      schema: {
        operationId: 'listRepos',
        summary: 'List connected repositories, newest first',
        querystring: RepoListQuery,
        response: responses({ 200: Type.Array(RepoSchema) }),
      },
    },
    async (request) => {
      const { providerId, limit, offset } = request.query;
      return ok(
        await present(request, await listRepositories(db, { providerId }, { limit, offset })),
      );
    },
  );

  app.post(
    '/repos',
    {
      config: { access: CONNECT },
      schema: {
        operationId: 'connectRepo',
        summary: 'Connect a repository (local: create it)',
        description:
          "Members. github: reads the repository with the caller's own delegated token. local: creates the bare repository (default branch main), or reconnects the one kept from an earlier connection. 409 when a repository of that fullName is connected. Records createdBy (the caller) and team (one the caller is in, else 403).",
        body: RepoInputSchema,
        response: responses({ 201: RepoSchema }),
      },
    },
    async (request, reply) => {
      const { providerId, owner, repoName, user, team } = request.body;
      const ownership = await ownershipFor(request.identity, team, ctx.access);
      const provider = await findProvider(db, providerId);
      const opened = await access.backend(request, provider, owner, repoName, user);
      if (opened.kind === 'local') await opened.git.create('main');
      const meta = await opened.git.metadata();
      const fullName = `${meta.owner}/${meta.repoName}`;
      const row = await orConflict(
        () =>
          insertRepository(db, {
            id: newId(),
            name: fullName,
            provider_id: provider.id,
            owner: meta.owner,
            repo_name: meta.repoName,
            connected_by: user ?? describeIdentity(request.identity),
            created_by: ownership.createdBy,
            team: ownership.team,
            ...columns(meta),
          }),
        nameTaken('Repository', fullName),
      );
      return reply.code(201).send(ok(await presentOne(request, row)));
    },
  );

  app.get(
    '/repos/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getRepo',
        summary: 'One repository (id, or fullName in any case)',
        params: IdOrNameParams,
        response: responses({ 200: RepoSchema }),
      },
    },
    async (request) =>
      ok(await presentOne(request, await findRepository(db, request.params.idOrName))),
  );

  app.delete(
    '/repos/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteRepo',
        summary: 'Disconnect a repository',
        description:
          'Forgets the repository, its local pull requests and webhooks; the repository itself stays (on GitHub, or under GIT_DATA_DIR for local ones, reconnected by POST /repos).',
        params: IdOrNameParams,
        response: responses({ 200: RepoSchema }),
      },
    },
    async (request) => {
      const repo = await findRepository(db, request.params.idOrName);
      return ok(await presentOne(request, (await deleteRepository(db, repo.id)) ?? repo));
    },
  );

  app.post(
    '/repos/:idOrName/sync',
    {
      config: { access: SYNC },
      schema: {
        operationId: 'syncRepo',
        summary: "Refresh a repository's metadata from its provider",
        description:
          'Default branch, visibility, html url and status (active, archived; missing when the provider answers 404 or the local directory is gone).',
        params: IdOrNameParams,
        body: Type.Optional(UserBody),
        response: responses({ 200: RepoSchema }),
      },
    },
    async (request) => {
      const opened = await access.open(request, request.params.idOrName, request.body?.user);
      const found = await opened.git.metadata().catch((error: { code?: string }) => {
        if (error.code !== 'NOT_FOUND') throw error;
        return undefined;
      });
      // Missing (GitHub's 404, a local directory gone): what was known stays, status says so.
      const meta = found?.status === 'missing' || !found ? toMeta(opened.repo) : found;
      const { repo } = opened;
      if (opened.kind === 'local') meta.htmlUrl = null; // made at read time (present)
      const row = (await updateMetadata(db, repo.id, columns(meta))) ?? repo;
      // Catalog discovery: a github repository's file is read now, with the caller's own token.
      if (opened.kind === 'github' && meta.status === 'active') {
        const { git } = opened;
        await ctx.state.catalog.sync(row, request.identity, (path) =>
          git.getFile(path, row.default_branch).catch((error: { code?: string }) => {
            if (error.code !== 'NOT_FOUND') throw error;
            return null;
          }),
        );
      } else if (opened.kind === 'local') await ctx.state.catalog.enqueue(row, request.identity);
      return ok(await presentOne(request, row));
    },
  );
};

const toMeta = (row: RepositoryRow): RepoMetadata => ({
  owner: row.owner,
  repoName: row.repo_name,
  htmlUrl: row.html_url,
  defaultBranch: row.default_branch,
  private: row.private,
  status: 'missing',
});
