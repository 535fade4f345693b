import { conflict, ok, responses, Type, type Access } from '@platform/core';
import { gitAccess, repositoryOwner } from '../domain/access.js';
import { directWrite } from '../domain/rules.js';
import { listProtections } from '../repositories/protections.js';
import {
  BranchInputSchema,
  BranchParams,
  BranchSchema,
  CommitInputSchema,
  CommitListQuery,
  CommitParams,
  CommitSchema,
} from '../schemas/git.js';
import { RepoParams, UserQuery } from '../schemas/repos.js';
import type { GitRoutes } from '../domain/state.js';

const ZERO = '0'.repeat(40);

/** Branches and commits of a repository, on its provider. */
export const branchRoutes: GitRoutes = async (app, ctx) => {
  const access = gitAccess(ctx, app);
  const hooks = ctx.state.webhooks;
  // Reading: anyone signed in (the git host decides the rest with the caller's own token).
  // Branching and committing: members, as collaborators do, with their own token (README).
  // Deleting a branch: the connection's owners.
  const READ_BRANCHES: Access = { resource: 'git.branch', action: 'read' };
  const CREATE_BRANCH: Access = { resource: 'git.branch', action: 'create' };
  const DELETE_BRANCH: Access = {
    resource: 'git.branch',
    action: 'delete',
    rule: 'owner',
    owner: repositoryOwner(ctx),
  };
  const READ_COMMITS: Access = { resource: 'git.commit', action: 'read' };
  const COMMIT: Access = { resource: 'git.commit', action: 'create' };

  app.get(
    '/repos/:id/branches',
    {
      config: { access: READ_BRANCHES },
      schema: {
        operationId: 'listBranches',
        summary: 'Branches of a repository, by name',
        params: RepoParams,
        querystring: UserQuery,
        response: responses({ 200: Type.Array(BranchSchema) }),
      },
    },
    async (request) => {
      const opened = await access.open(request, request.params.id, request.query.user);
      const branches = await opened.git.listBranches(opened.repo.default_branch);
      if (opened.kind !== 'local') return ok(branches);
      const rules = new Set((await listProtections(ctx.db, opened.repo.id)).map((r) => r.branch));
      return ok(branches.map((b) => ({ ...b, protected: rules.has(b.name) })));
    },
  );

  app.post(
    '/repos/:id/branches',
    {
      config: { access: CREATE_BRANCH },
      schema: {
        operationId: 'createBranch',
        summary: 'Create a branch from a ref',
        description:
          '`from`: a branch, tag or sha (default: the default branch). 409 when the branch exists.',
        params: RepoParams,
        body: BranchInputSchema,
        response: responses({ 201: BranchSchema }),
      },
    },
    async (request, reply) => {
      const { user, name, from } = request.body;
      const opened = await access.open(request, request.params.id, user, 'git.branch');
      const branch = await opened.git.createBranch(name, from ?? opened.repo.default_branch);
      if (opened.kind === 'local')
        await hooks.emit(opened.repo, 'create', {
          ref: name,
          ref_type: 'branch',
          sender: { login: access.author(request, user).email },
        });
      return reply.code(201).send(ok(branch));
    },
  );

  app.delete(
    '/repos/:id/branches/:name',
    {
      config: { access: DELETE_BRANCH },
      schema: {
        operationId: 'deleteBranch',
        summary: 'Delete a branch',
        description: "409 for the repository's default branch.",
        params: BranchParams,
        querystring: UserQuery,
        response: responses({ 200: Type.Object({ name: Type.String() }) }),
      },
    },
    async (request) => {
      const { name } = request.params;
      const opened = await access.open(request, request.params.id, request.query.user);
      if (name === opened.repo.default_branch)
        throw conflict(`${name} is the default branch: it cannot be deleted`);
      if (opened.kind === 'local') await directWrite(ctx.db, opened.repo, name, 'delete');
      await opened.git.deleteBranch(name);
      if (opened.kind === 'local')
        await hooks.emit(opened.repo, 'delete', {
          ref: name,
          ref_type: 'branch',
          sender: { login: access.author(request, request.query.user).email },
        });
      return ok({ name });
    },
  );

  app.get(
    '/repos/:id/commits',
    {
      config: { access: READ_COMMITS },
      schema: {
        operationId: 'listCommits',
        summary: 'Commits of a branch, newest first',
        description: '`branch` (default: the default branch), `limit` (30, max 1000), `offset`.',
        params: RepoParams,
        querystring: CommitListQuery,
        response: responses({ 200: Type.Array(CommitSchema) }),
      },
    },
    async (request) => {
      const { user, branch, limit, offset } = request.query;
      const { git, repo } = await access.open(request, request.params.id, user);
      return ok(await git.listCommits(branch ?? repo.default_branch, limit, offset));
    },
  );

  app.get(
    '/repos/:id/commits/:sha',
    {
      config: { access: READ_COMMITS },
      schema: {
        operationId: 'getCommit',
        summary: 'One commit with the files it changed',
        params: CommitParams,
        querystring: UserQuery,
        response: responses({ 200: CommitSchema }),
      },
    },
    async (request) => {
      const { git } = await access.open(request, request.params.id, request.query.user);
      return ok(await git.getCommit(request.params.sha));
    },
  );

  app.post(
    '/repos/:id/commits',
    {
      bodyLimit: 32 * 1024 * 1024,
      config: { access: COMMIT },
      schema: {
        operationId: 'createCommit',
        summary: 'One commit of many files, atomically',
        description:
          'files: [{ path, content, encoding? }] (content null deletes the file; encoding utf8 or base64). github: the git data API (blobs, a tree, a commit, the ref moved without force: 409 when the branch moved meanwhile); local: isomorphic-git. Body up to 32 MiB.',
        params: RepoParams,
        body: CommitInputSchema,
        response: responses({ 201: CommitSchema }),
      },
    },
    async (request, reply) => {
      const { user, branch, message, files } = request.body;
      const opened = await access.open(request, request.params.id, user, 'git.commit');
      if (opened.kind === 'local') await directWrite(ctx.db, opened.repo, branch, 'commit');
      const author = access.author(request, user);
      const commit = await opened.git.createCommit({ branch, message, files, author });
      if (opened.kind === 'local') {
        const update = {
          ref: `refs/heads/${branch}`,
          before: commit.parents[0] ?? ZERO,
          after: commit.sha,
        };
        const by = { ...author, identity: request.identity };
        await ctx.state.pushes.record(opened.repo, opened.gitdir, [update], by, [update.before]);
      }
      return reply.code(201).send(ok(commit));
    },
  );
};
