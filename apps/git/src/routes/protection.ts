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
import { gitAccess, repositoryOwner } from '../domain/access.js';
import { unmetRules } from '../domain/rules.js';
import { findPull } from '../repositories/pulls.js';
import {
  deleteProtection,
  insertReview,
  listProtections,
  listReviews,
  upsertProtection,
} from '../repositories/protections.js';
import { PullParams } from '../schemas/pulls.js';
import {
  MergeabilitySchema,
  ProtectionInputSchema,
  ProtectionParams,
  ProtectionSchema,
  REVIEW_EVENTS,
  ReviewInputSchema,
  ReviewSchema,
  toProtection,
  toReview,
} from '../schemas/protection.js';
import { RepoParams, UserQuery } from '../schemas/repos.js';
import type { GitRoutes } from '../domain/state.js';

const LOCAL_ONLY =
  'Branch protection and reviews here are for local repositories: GitHub keeps its own';

/** Branch protection rules and pull request reviews of local repositories. */
export const protectionRoutes: GitRoutes = async (app, ctx) => {
  const { db } = ctx;
  const access = gitAccess(ctx, app);
  const owner = repositoryOwner(ctx);
  // Reading: anyone signed in. Rules: the connection's owners. Reviews: collaborators (on a
  // local repository, the connection's owners: its creator, its team, admins).
  const READ: Access = { resource: 'git.protection', action: 'read' };
  const SET: Access = { resource: 'git.protection', action: 'update', rule: 'owner', owner };
  const UNSET: Access = { resource: 'git.protection', action: 'delete', rule: 'owner', owner };
  const READ_REVIEWS: Access = { resource: 'git.review', action: 'read' };
  const REVIEW: Access = { resource: 'git.review', action: 'create' };

  const local = async (request: Parameters<typeof access.open>[0], id: string, writes?: string) => {
    const opened = await access.open(request, id, undefined, writes);
    if (opened.kind !== 'local') throw badRequest(LOCAL_ONLY);
    return opened;
  };

  app.get(
    '/repos/:id/protections',
    {
      config: { access: READ },
      schema: {
        operationId: 'listProtections',
        summary: "A local repository's protected branches",
        params: RepoParams,
        querystring: UserQuery,
        response: responses({ 200: Type.Array(ProtectionSchema) }),
      },
    },
    async (request) => {
      const { repo } = await local(request, request.params.id);
      return ok((await listProtections(db, repo.id)).map(toProtection));
    },
  );

  app.put(
    '/repos/:id/protections/:branch',
    {
      config: { access: SET },
      schema: {
        operationId: 'protectBranch',
        summary: 'Protect a branch (or change its rule)',
        description:
          'A protected branch refuses force pushes and deletion (`git push` prints why), and with `requirePullRequest` every push and API commit; merges into it need `requiredApprovals` approvals and no standing request for changes. The branch need not exist yet.',
        params: ProtectionParams,
        body: ProtectionInputSchema,
        response: responses({ 200: ProtectionSchema }),
      },
    },
    async (request) => {
      const { repo } = await local(request, request.params.id);
      const { requirePullRequest, requiredApprovals } = request.body;
      const row = await upsertProtection(db, {
        id: newId(),
        repository_id: repo.id,
        branch: request.params.branch,
        require_pull_request: requirePullRequest,
        required_approvals: requiredApprovals,
        created_by: access.author(request, undefined).email,
      });
      return ok(toProtection(row));
    },
  );

  app.delete(
    '/repos/:id/protections/:branch',
    {
      config: { access: UNSET },
      schema: {
        operationId: 'unprotectBranch',
        summary: "Remove a branch's protection",
        params: ProtectionParams,
        response: responses({ 200: ProtectionSchema }),
      },
    },
    async (request) => {
      const { repo } = await local(request, request.params.id);
      const row = await deleteProtection(db, repo.id, request.params.branch);
      if (!row) throw notFound('Protection', `${request.params.branch} of ${repo.name}`);
      return ok(toProtection(row));
    },
  );

  app.get(
    '/repos/:id/pulls/:number/reviews',
    {
      config: { access: READ_REVIEWS },
      schema: {
        operationId: 'listReviews',
        summary: "A local pull request's reviews, and whether its base's rules hold",
        params: PullParams,
        querystring: UserQuery,
        response: responses({ 200: MergeabilitySchema }),
      },
    },
    async (request) => {
      const { repo, git } = await local(request, request.params.id);
      const pull = await findPull(db, repo.id, request.params.number);
      if (!pull) throw notFound('Pull request', `#${request.params.number} of ${repo.name}`);
      // A head branch deleted since: no commit, so no approval of it.
      const [head] = await git.listCommits(pull.head, 1, 0).catch(() => []);
      const missing = await unmetRules(db, repo, pull, head?.sha);
      const reviews = (await listReviews(db, repo.id, pull.number)).map(toReview);
      return ok({ mergeable: missing.length === 0, missing, reviews });
    },
  );

  app.post(
    '/repos/:id/pulls/:number/reviews',
    {
      config: { access: REVIEW },
      schema: {
        operationId: 'createReview',
        summary: 'Review a local pull request',
        description:
          "`event` APPROVE, REQUEST_CHANGES or COMMENT (GitHub's). Each reviewer's latest approval or request for changes is the one that counts. 400 for the pull request's author approving or requesting changes on their own, or a COMMENT without a body; 409 when it is closed.",
        params: PullParams,
        body: ReviewInputSchema,
        response: responses({ 201: ReviewSchema }),
      },
    },
    async (request, reply) => {
      const { event, body } = request.body;
      const opened = await local(request, request.params.id, 'git.review');
      const pull = await findPull(db, opened.repo.id, request.params.number);
      if (!pull) throw notFound('Pull request', `#${request.params.number} of ${opened.repo.name}`);
      if (pull.state !== 'open') throw conflict(`Pull request #${pull.number} is closed`);
      const author = access.author(request, request.body.user).email;
      if (event !== 'COMMENT' && author.toLowerCase() === pull.author.toLowerCase())
        throw badRequest(
          `${author} opened pull request #${pull.number}: one cannot review one's own`,
        );
      if (event === 'COMMENT' && !body?.trim()) throw badRequest('body is required for a COMMENT');
      const [head] = await opened.git.listCommits(pull.head, 1, 0);
      const row = await insertReview(db, {
        id: newId(),
        repository_id: opened.repo.id,
        pull_number: pull.number,
        author,
        state: REVIEW_EVENTS[event],
        body: body ?? null,
        commit_sha: head.sha,
      });
      await ctx.state.webhooks.emit(opened.repo, 'pull_request_review', {
        action: 'submitted',
        review: toReview(row),
        pull_request: {
          number: pull.number,
          title: pull.title,
          head: { ref: pull.head },
          base: { ref: pull.base },
        },
      });
      return reply.code(201).send(ok(toReview(row)));
    },
  );
};
