import { ok, responses, type Access } from '@platform/core';
import { gitAccess, repositoryOwner } from '../domain/access.js';
import { DEFAULT_CATALOG_PATH } from '../domain/catalog.js';
import { findRepository, updateCatalogPath } from '../repositories/repos.js';
import { CatalogInputSchema, CatalogStateSchema, toCatalogState } from '../schemas/catalog.js';
import { RepoParams } from '../schemas/repos.js';
import type { GitRoutes } from '../domain/state.js';

/** Catalog discovery's settings and outcome for a repository. */
export const catalogRoutes: GitRoutes = async (app, ctx) => {
  const { db } = ctx;
  const access = gitAccess(ctx, app);
  const READ: Access = { resource: 'git.repository', action: 'read' };
  const SET: Access = {
    resource: 'git.repository',
    action: 'update',
    rule: 'owner',
    owner: repositoryOwner(ctx),
  };

  app.get(
    '/repos/:id/catalog',
    {
      config: { access: READ },
      schema: {
        operationId: 'getCatalogDiscovery',
        summary: 'Catalog discovery: the file read, its last error, what it made',
        description:
          "A local repository's catalog file is read after every push to its default branch (a github one's at each sync) and sent to the catalog's import; `error` says why it was last refused (nothing of it applied).",
        params: RepoParams,
        response: responses({ 200: CatalogStateSchema }),
      },
    },
    async (request) =>
      ok(toCatalogState(await findRepository(db, request.params.id), DEFAULT_CATALOG_PATH)),
  );

  app.put(
    '/repos/:id/catalog',
    {
      config: { access: SET },
      schema: {
        operationId: 'setCatalogDiscovery',
        summary: 'Name the catalog file of a repository',
        description:
          '`path` on the default branch (null: catalog-info.yaml). A local repository is read again at once (a job); a github one at its next sync.',
        params: RepoParams,
        body: CatalogInputSchema,
        response: responses({ 200: CatalogStateSchema }),
      },
    },
    async (request) => {
      const opened = await access.open(request, request.params.id, undefined);
      const row = await updateCatalogPath(db, opened.repo.id, request.body.path);
      if (opened.kind === 'local') await ctx.state.catalog.enqueue(row, request.identity);
      return ok(toCatalogState(row, DEFAULT_CATALOG_PATH));
    },
  );
};
