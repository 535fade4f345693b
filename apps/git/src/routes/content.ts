import { badRequest, ok, responses, Type, type Access } from '@platform/core';
import { gitAccess } from '../domain/access.js';
import { checkPath, checkRef } from '../domain/backends/backend.js';
import {
  CompareParams,
  CompareSchema,
  EntrySchema,
  FileSchema,
  FilesQuery,
  RefQuery,
} from '../schemas/git.js';
import { RepoParams } from '../schemas/repos.js';
import type { GitRoutes } from '../domain/state.js';

/** Reading: anyone signed in; the git host decides the rest with the caller's own token. */
const READ_FILES: Access = { resource: 'git.file', action: 'read' };
const COMPARE: Access = { resource: 'git.commit', action: 'read' };

/** Files (a directory listing, a file's content) and comparisons of two refs. */
export const contentRoutes: GitRoutes = async (app, ctx) => {
  const access = gitAccess(ctx, app);

  app.get(
    '/repos/:id/files',
    {
      config: { access: READ_FILES },
      schema: {
        operationId: 'listFiles',
        summary: 'A directory of a repository at a ref',
        description: '`path` (default: the root), `ref` (default: the default branch).',
        params: RepoParams,
        querystring: FilesQuery,
        response: responses({ 200: Type.Array(EntrySchema) }),
      },
    },
    async (request) => {
      const { user, ref, path = '' } = request.query;
      const { git, repo } = await access.open(request, request.params.id, user);
      const dir = path.replace(/^\/+|\/+$/g, '');
      return ok(await git.listFiles(dir === '' ? '' : checkPath(dir), ref ?? repo.default_branch));
    },
  );

  app.get(
    '/repos/:id/files/*',
    {
      config: { access: READ_FILES },
      schema: {
        operationId: 'getFile',
        summary: "A file's content at a ref",
        description: 'UTF-8 text as is (`encoding: utf8`), anything else in base64.',
        params: Type.Object({ id: RepoParams.properties.id, '*': Type.String() }),
        querystring: RefQuery,
        response: responses({ 200: FileSchema }),
      },
    },
    async (request) => {
      const path = request.params['*'];
      if (!path) throw badRequest('The file path is required: /repos/:id/files/<path>');
      const { git, repo } = await access.open(request, request.params.id, request.query.user);
      return ok(await git.getFile(checkPath(path), request.query.ref ?? repo.default_branch));
    },
  );

  app.get(
    '/repos/:id/compare/*',
    {
      config: { access: COMPARE },
      schema: {
        operationId: 'compare',
        summary: 'Compare two refs: <base>...<head>',
        description:
          'From their merge base, as GitHub compares: status (identical, ahead, behind, diverged), aheadBy, behindBy, the commits of head not in base (oldest first, at most 250) and the files changed.',
        params: CompareParams,
        querystring: Type.Object({ user: RefQuery.properties.user }),
        response: responses({ 200: CompareSchema }),
      },
    },
    async (request) => {
      const [base, head, ...rest] = request.params['*'].split('...');
      if (!base || !head || rest.length > 0)
        throw badRequest(
          'The comparison must be <base>...<head> (three dots), e.g. main...feature',
        );
      checkRef(base, 'base');
      checkRef(head, 'head');
      const { git } = await access.open(request, request.params.id, request.query.user);
      return ok(await git.compare(base, head));
    },
  );
};
