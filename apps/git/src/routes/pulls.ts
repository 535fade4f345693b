import {
  badRequest,
  conflict,
  newId,
  notFound,
  ok,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { gitAccess, repositoryOwner, type Opened } from '../domain/access.js';
import { mergeable } from '../domain/rules.js';
import { findPull, insertPull, listPulls, markMerged } from '../repositories/pulls.js';
import {
  MergeInputSchema,
  MergeSchema,
  PullInputSchema,
  PullListQuery,
  PullParams,
  PullSchema,
  toPull,
} from '../schemas/pulls.js';
import { RepoParams, UserQuery } from '../schemas/repos.js';
import type { GitRoutes } from '../domain/state.js';

/** Pull requests: GitHub's own, or kept in this service's schema for local repositories. */
export const pullRoutes: GitRoutes = async (app, ctx) => {
  const { db } = ctx;
  const access = gitAccess(ctx, app);
  const hooks = ctx.state.webhooks;
  // Reading: anyone signed in. Opening one: members, as collaborators do, with their own token
  // (README). Merging: the connection's owners.
  const READ: Access = { resource: 'git.pull', action: 'read' };
  const OPEN: Access = { resource: 'git.pull', action: 'create' };
  const MERGE: Access = {
    resource: 'git.pull',
    action: 'update',
    rule: 'owner',
    owner: repositoryOwner(ctx),
  };

  async function localPull(opened: Opened, number: number) {
    const row = await findPull(db, opened.repo.id, number);
    if (!row) throw notFound('Pull request', `#${number} of ${opened.repo.name}`);
    return row;
  }

  app.get(
    '/repos/:id/pulls',
    {
      config: { access: READ },
      schema: {
        operationId: 'listPulls',
        summary: 'Pull requests, newest first',
        description: '`state`: open (default), closed or all.',
        params: RepoParams,
        querystring: PullListQuery,
        response: responses({ 200: Type.Array(PullSchema) }),
      },
    },
    async (request) => {
      const { user, state, limit, offset } = request.query;
      const opened = await access.open(request, request.params.id, user);
      if (opened.kind === 'github') return ok(await opened.git.pulls.list(state, limit, offset));
      return ok((await listPulls(db, opened.repo.id, state, { limit, offset })).map(toPull));
    },
  );

  app.post(
    '/repos/:id/pulls',
    {
      config: { access: OPEN },
      schema: {
        operationId: 'createPull',
        summary: 'Open a pull request from head into base',
        description:
          '400 when head and base are one branch, 404 when either is missing, 409 when head has nothing to merge.',
        params: RepoParams,
        body: PullInputSchema,
        response: responses({ 201: PullSchema }),
      },
    },
    async (request, reply) => {
      const { user, title, body, head, base } = request.body;
      if (head === base) throw badRequest('head and base must be different branches');
      const opened = await access.open(request, request.params.id, user, 'git.pull');
      if (opened.kind === 'github')
        return reply.code(201).send(ok(await opened.git.pulls.create({ title, body, head, base })));
      const comparison = await opened.git.compare(base, head);
      if (comparison.aheadBy === 0)
        throw conflict(`${head} has no commits that ${base} lacks: nothing to pull`);
      const row = await insertPull(db, {
        id: newId(),
        repository_id: opened.repo.id,
        title,
        body: body ?? null,
        head,
        base,
        author: access.author(request, user).email,
      });
      const pull = toPull(row);
      await hooks.emit(opened.repo, 'pull_request', {
        action: 'opened',
        number: pull.number,
        pull_request: pull,
      });
      return reply.code(201).send(ok(pull));
    },
  );

  app.get(
    '/repos/:id/pulls/:number',
    {
      config: { access: READ },
      schema: {
        operationId: 'getPull',
        summary: 'One pull request',
        params: PullParams,
        querystring: UserQuery,
        response: responses({ 200: PullSchema }),
      },
    },
    async (request) => {
      const opened = await access.open(request, request.params.id, request.query.user);
      if (opened.kind === 'github') return ok(await opened.git.pulls.get(request.params.number));
      return ok(toPull(await localPull(opened, request.params.number)));
    },
  );

  app.post(
    '/repos/:id/pulls/:number/merge',
    {
      config: { access: MERGE },
      schema: {
        operationId: 'mergePull',
        summary: 'Merge a pull request',
        description:
          '`method`: merge (a merge commit, the default), squash, or rebase (github only). 409 when it conflicts, is closed or merged already, (github) the head moved, or (local) the base is a protected branch whose rules do not hold yet (approvals, changes requested), naming them.',
        params: PullParams,
        body: MergeInputSchema,
        response: responses({ 200: MergeSchema }),
      },
    },
    async (request) => {
      const { user, method, message } = request.body;
      const { number } = request.params;
      const opened = await access.open(request, request.params.id, user);
      if (opened.kind === 'github')
        return ok(await opened.git.pulls.merge(number, method, message));
      if (method === 'rebase')
        throw badRequest(
          'method rebase is not supported for local repositories: use merge or squash',
        );
      const pull = await localPull(opened, number);
      if (pull.state !== 'open')
        throw conflict(`Pull request #${number} is ${pull.merged ? 'merged' : 'closed'} already`);
      const text = message ?? `Merge pull request #${number} from ${pull.head}\n\n${pull.title}`;
      const author = access.author(request, user);
      const [head] = await opened.git.listCommits(pull.head, 1, 0);
      await mergeable(db, opened.repo, pull, head?.sha);
      const before = await opened.git.listCommits(pull.base, 1, 0);
      const sha = await opened.git.merge(pull.base, pull.head, method, text, author);
      const merged = await markMerged(db, pull.id, sha);
      if (merged) {
        await hooks.emit(opened.repo, 'pull_request', {
          action: 'closed',
          number,
          pull_request: toPull(merged),
        });
        const update = { ref: `refs/heads/${pull.base}`, before: before[0].sha, after: sha };
        const by = { ...author, identity: request.identity };
        await ctx.state.pushes.record(opened.repo, opened.gitdir, [update], by, [update.before]);
      }
      return ok({ merged: true, sha, message: 'Pull Request successfully merged' });
    },
  );
};
