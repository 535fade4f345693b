import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, enforce, notFound, responses, Type, type Access } from '@platform/core';
import { gitAccess, localGitdir } from '../domain/access.js';
import type { CgiReply } from '../domain/smart/cgi.js';
import { serveRead, serveReceive, type SmartRequest } from '../domain/smart/serve.js';
import type { GitRoutes } from '../domain/state.js';
import { findProvider } from '../repositories/providers.js';
import { findRepository, findRepositoryOwnership } from '../repositories/repos.js';
import { SmartParams, SmartQuery, gitPackBody, repoFullName } from '../schemas/smart.js';

const PACK_TYPES = [
  'application/x-git-upload-pack-request',
  'application/x-git-receive-pack-request',
];
const BINARY = {
  description: "git's smart HTTP answer (pkt-lines, a pack)",
  content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>(gitPackBody) } },
};

/**
 * Smart HTTP for local repositories at `/git/<owner>/<repoName>.git` (a mount of the service):
 * `git http-backend` runs each request, streaming both ways. HTTP Basic with the platform API key
 * as the password; reading needs read access, pushing the owner rule (the connection's creator,
 * its team, admins) with `git:write`.
 */
export const smartHttpRoutes: GitRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  const access = gitAccess(ctx, app);
  const ownerOf = (request: FastifyRequest) =>
    findRepositoryOwnership(db, repoFullName(request.params as Record<string, string>));
  const READ: Access = { resource: 'git.repository', action: 'read', keyFrom: ['basic-password'] };
  const PUSH: Access = {
    resource: 'git.repository',
    action: 'update',
    rule: 'owner',
    owner: ownerOf,
    keyFrom: ['basic-password'],
  };

  // The pack streams through untouched: never parsed, never held whole in memory.
  app.addContentTypeParser(PACK_TYPES, (_request, payload, done) => done(null, payload));
  app.addHook('onSend', async (request, reply, payload) => gitFriendly(request, reply, payload));

  /** The local repository the path names, its folder, and refusal of anything else. */
  async function locate(request: FastifyRequest) {
    const name = repoFullName(request.params as Record<string, string>);
    const repo = await findRepository(db, name).catch(() => {
      throw notFound('Repository', name);
    });
    const provider = await findProvider(db, repo.provider_id);
    if (provider.type !== 'local')
      throw notFound('Repository', `${name}: it is on ${provider.name} (github), clone it there`);
    return { repo, gitdir: localGitdir(config, provider.id, repo.owner, repo.repo_name) };
  }

  const cgiOf = (request: FastifyRequest, path: string, body?: Readable): SmartRequest => {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const pusher = access.author(request, undefined);
    return {
      path,
      method: request.method,
      query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
      contentType: header('content-type'),
      contentLength: header('content-length'),
      contentEncoding: header('content-encoding'),
      gitProtocol: header('git-protocol'),
      remoteUser: pusher.email,
      body,
      log: (line) => request.log.info({ git: line }, 'git http-backend'),
    };
  };

  const send = (reply: FastifyReply, answer: CgiReply) => {
    reply.code(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
    return reply.send(answer.body);
  };

  app.get(
    '/info/refs',
    {
      config: { access: READ },
      schema: {
        operationId: 'gitInfoRefs',
        summary: "A repository's refs, as git clone, fetch and push first ask",
        description:
          '`service=git-upload-pack` (read access) or `git-receive-pack` (the owner rule with git:write). HTTP Basic, the API key as the password; without credentials 401 with WWW-Authenticate so that git asks for them. Protocol v2 when git sends `Git-Protocol: version=2`.',
        params: SmartParams,
        querystring: SmartQuery,
        response: { ...responses({}), 200: BINARY },
      },
    },
    async (request, reply) => {
      const { service } = request.query;
      if (service === 'git-receive-pack') await enforce(request, PUSH, ctx.access);
      const { gitdir } = await locate(request);
      return send(reply, await serveRead(gitdir, cgiOf(request, '/info/refs')));
    },
  );

  /** The request body as git sent it, or a 400 (any other media type). */
  function packBody(request: FastifyRequest, type: string): Readable {
    if (!(request.body instanceof Readable))
      throw badRequest(
        `The body must be ${type} (git's own request), not ${request.headers['content-type'] ?? 'empty'}`,
      );
    return request.body;
  }

  app.post(
    '/git-upload-pack',
    {
      config: { access: READ },
      schema: {
        operationId: 'gitUploadPack',
        summary: 'Fetch or clone: git-upload-pack',
        description:
          "git's request (application/x-git-upload-pack-request, gzip or not) streamed to git upload-pack; shallow clones and protocol v2 as git negotiates them.",
        params: SmartParams,
        response: { ...responses({}), 200: BINARY },
      },
    },
    async (request, reply) => {
      const body = packBody(request, PACK_TYPES[0]);
      const { gitdir } = await locate(request);
      return send(reply, await serveRead(gitdir, cgiOf(request, '/git-upload-pack', body)));
    },
  );

  app.post(
    '/git-receive-pack',
    {
      config: { access: PUSH },
      schema: {
        operationId: 'gitReceivePack',
        summary: 'Push: git-receive-pack',
        description:
          "git's push streamed to git receive-pack under the repository's lock. Protected branches refuse deletion, force pushes and (when they require a pull request) any push, through git's own update hook: `git push` prints the reason. Each ref that moved is one push event (GET /api/v1/git/webhooks/events?event=push), a webhook delivery and a ledger entry, recorded before the answer ends.",
        params: SmartParams,
        response: { ...responses({}), 200: BINARY },
      },
    },
    async (request, reply) => {
      let body = packBody(request, PACK_TYPES[1]);
      const { repo, gitdir } = await locate(request);
      const cgi = cgiOf(request, '/git-receive-pack', body);
      if (cgi.contentEncoding === 'gzip') {
        body = body.pipe(createGunzip());
        Object.assign(cgi, { body, contentEncoding: undefined, contentLength: undefined });
      }
      const pusher = { ...access.author(request, undefined), identity: request.identity };
      return send(reply, await serveReceive(ctx, repo, gitdir, cgi, pusher));
    },
  );
};

/**
 * What git shows of a refusal: git (its User-Agent) gets the message of an error envelope as
 * text/plain, which it prints (`remote: ...`); other clients keep the envelope. (A 401 asking for
 * HTTP Basic, which makes git prompt, is libs/core's, for every route that takes its key so.)
 */
function gitFriendly(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const body = payload;
  const agent = request.headers['user-agent'] ?? '';
  if (reply.statusCode >= 400 && agent.startsWith('git/') && typeof body === 'string') {
    try {
      const message = (JSON.parse(body) as { error?: { message?: string } }).error?.message;
      if (message) {
        reply.type('text/plain; charset=utf-8');
        return `${message}\n`;
      }
    } catch {
      // not an envelope: as it is
    }
  }
  return body;
}
