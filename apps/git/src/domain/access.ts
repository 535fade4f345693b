import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ApiError,
  badRequest,
  delegatedToken,
  describeIdentity,
  enforce,
  type Access,
  type Identity,
} from '@platform/core';
import { DEFAULT_GITHUB_URL, normaliseBaseUrl, type GitConfig } from '../config.js';
import type { ProviderRow, RepositoryRow } from '../database.js';
import type { Author } from './backends/backend.js';
import { githubBackend, type GithubBackend } from './backends/github.js';
import { localBackend, type LocalBackend } from './backends/local.js';
import type { RetryableError } from './backends/errors.js';
import { octokitFor } from './backends/octokit.js';
import { findProvider } from '../repositories/providers.js';
import { findRepository, findRepositoryOwnership } from '../repositories/repos.js';
import { SEGMENT_PATTERN } from '../schemas/repos.js';
import type { GitContext } from './state.js';

/**
 * A github provider's base URL, if delegated tokens may be sent there: https://api.github.com or
 * one listed in GIT_GITHUB_URLS (compared normalised). Anything else is a 400 naming the variable.
 */
export function allowedGithubUrl(config: GitConfig, raw: string | undefined): string {
  let url: string;
  try {
    url = normaliseBaseUrl(raw ?? DEFAULT_GITHUB_URL);
  } catch (error) {
    throw badRequest(`baseUrl ${(error as Error).message}`);
  }
  if (url !== DEFAULT_GITHUB_URL && !config.githubUrls.includes(url))
    throw badRequest(
      `baseUrl ${url} is not allowed: users' delegated tokens are sent only to ${DEFAULT_GITHUB_URL} and the URLs listed in GIT_GITHUB_URLS`,
    );
  return url;
}
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const GITHUB_SEGMENT = new RegExp(SEGMENT_PATTERN);

/** GitHub's owner and name go into URL paths unencoded: `.` or `..` would climb (`GET /`). */
function checkGithubSegments(owner: string, repoName: string) {
  for (const [field, value] of [
    ['owner', owner],
    ['repoName', repoName],
  ])
    if (value.length > 100 || !GITHUB_SEGMENT.test(value))
      throw badRequest(
        `${field} ${JSON.stringify(value)} must be letters, digits, '.', '_' or '-', and not only dots`,
      );
}

/** A local repository's directory: `<GIT_DATA_DIR>/<providerId>/<owner>/<name>.git`, never outside. */
export function localGitdir(
  config: GitConfig,
  providerId: string,
  owner: string,
  repoName: string,
) {
  for (const [field, value] of [
    ['owner', owner],
    ['repoName', repoName],
  ])
    if (!SEGMENT.test(value) || value.includes('..'))
      throw badRequest(
        `${field} ${JSON.stringify(value)} must be letters, digits, '.', '_' or '-', not starting with '.', without '..'`,
      );
  const root = resolve(config.dataDir);
  const gitdir = resolve(
    join(root, providerId, owner.toLowerCase(), `${repoName.toLowerCase()}.git`),
  );
  if (!gitdir.startsWith(root + sep))
    throw badRequest('owner and repoName must name a directory inside GIT_DATA_DIR');
  return gitdir;
}

export type Opened =
  | { kind: 'github'; provider: ProviderRow; repo: RepositoryRow; git: GithubBackend }
  | {
      kind: 'local';
      provider: ProviderRow;
      repo: RepositoryRow;
      git: LocalBackend;
      /** The bare repository's folder. */
      gitdir: string;
    };

/**
 * The person a caller acts as, whose delegated token and authorship git uses: a signed-in user,
 * a personal key's owner, the person a platform service acts for; null for a team key or a
 * service acting for no one; undefined when nobody is signed in (authentication off).
 */
export function personOf(identity: Identity): string | null | undefined {
  switch (identity.kind) {
    case 'user':
      return identity.email;
    case 'key':
      return identity.owner;
    case 'service':
      return identity.user ?? null;
    default:
      return undefined;
  }
}

/** Whose repository connection this request names (`:id` or `:idOrName`), for the owner rule. */
export const repositoryOwner =
  (ctx: GitContext): Access['owner'] =>
  (request) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    return findRepositoryOwnership(ctx.db, params.id ?? params.idOrName);
  };

/**
 * What a collaborator's write (a commit, a branch, a pull request) needs on a local repository:
 * the platform is its git host and has no rights of its own to check, so ownership of the
 * connection (its creator, its team, admins) stands in for the host's push right.
 */
const localWrite = (repo: RepositoryRow, resource: string): Access => ({
  resource,
  action: 'create',
  rule: 'owner',
  owner: async () => ({ createdBy: repo.created_by, team: repo.team }),
});

/** The `user` a request names (body for writes, query for reads), if any. */
function namedUser(request: FastifyRequest): string | undefined {
  const body = request.body as { user?: unknown } | undefined;
  const query = request.query as { user?: unknown } | undefined;
  const user = (body && typeof body === 'object' ? body.user : undefined) ?? query?.user;
  return typeof user === 'string' ? user : undefined;
}

/** How routes reach a repository's provider: GitHub with the user's delegated token, or local. */
export function gitAccess(ctx: GitContext, app: FastifyInstance) {
  const { db, config, auth } = ctx;
  const log = app.log;
  // A provider's rate limit answers 429 with Retry-After: when to try again, in seconds.
  app.addHook('onError', async (_request, reply, error) => {
    const seconds = (error as RetryableError).retryAfterSeconds;
    if (seconds !== undefined) reply.header('retry-after', String(seconds));
  });
  // A caller only ever acts as themselves: another person's `user` is refused before anything.
  app.addHook('preHandler', async (request) => {
    await actingUser(request, namedUser(request));
  });

  /**
   * Whose delegated token (and authorship) a request uses: the caller's own person; `user` may
   * only name that person (any case), else 403 naming it (audited). Absent: the caller.
   * Authentication off: `user` as given (everyone may do everything).
   */
  async function actingUser(request: FastifyRequest, user: string | undefined) {
    const { identity } = request;
    const me = personOf(identity);
    if (!auth.enabled || me === undefined) return user;
    if (user === undefined) return me ?? undefined;
    if (me && user.toLowerCase() === me.toLowerCase()) return user;
    const who = describeIdentity(identity);
    const missing = me ? `to be ${user} (it acts as ${me})` : `to be ${user} (it is no person)`;
    await ctx.access
      .audit?.({
        actor: who,
        resource: 'git.repository',
        metadata: {
          method: request.method,
          path: request.url.split('?')[0],
          action: 'act-as',
          missing,
          requestId: request.id,
        },
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'denial not audited'));
    throw new ApiError(
      'FORBIDDEN',
      `${who} may not act as ${user}: git uses only the caller's own delegated token and name (leave user out, or give your own email)`,
    );
  }

  /** The `user`'s delegated token for the provider, from the identity service (never the request). */
  async function tokenFor(request: FastifyRequest, provider: ProviderRow, user: string) {
    const passportProvider = provider.passport_provider_id as string;
    if (!auth.enabled)
      throw new ApiError(
        'FORBIDDEN',
        `Authentication is off, so there are no delegated tokens: ${provider.name} (github) needs authentication on and ${user} connected through the identity service`,
      );
    return delegatedToken({
      provider: passportProvider,
      user,
      getToken: () =>
        ctx.platformFor(request.identity).passport.getToken({
          body: { provider: passportProvider, user },
        }),
      unknownProvider: (message) =>
        `Provider ${provider.name}: passportProviderId ${passportProvider} is not a provider of the identity service (${message})`,
    });
  }

  /** The provider's backend for a repository given by parts (connecting one) or by its row. */
  async function backend(
    request: FastifyRequest,
    provider: ProviderRow,
    owner: string,
    repoName: string,
    named: string | undefined,
  ) {
    const user = await actingUser(request, named);
    if (provider.type === 'local') {
      const gitdir = localGitdir(config, provider.id, owner, repoName);
      return {
        kind: 'local' as const,
        git: localBackend(gitdir, `${owner}/${repoName}`),
        gitdir,
      };
    }
    checkGithubSegments(owner, repoName);
    if (!user && auth.enabled)
      throw new ApiError(
        'FORBIDDEN',
        `${describeIdentity(request.identity)} acts for no person, so it has no delegated token: github repositories need a signed-in person or a personal key`,
      );
    if (!user)
      throw badRequest(
        `user is required for a github repository: the email of whose delegated token acts`,
      );
    // Checked again at every use: GIT_GITHUB_URLS may have lost the URL since it was registered.
    const baseUrl = allowedGithubUrl(config, provider.base_url ?? undefined);
    const token = await tokenFor(request, provider, user);
    const octokit = octokitFor({
      token,
      baseUrl,
      timeoutMs: config.timeoutMs,
      log,
      requestId: request.id,
    });
    return { kind: 'github' as const, git: githubBackend(octokit, owner, repoName) };
  }

  /**
   * A connected repository (id, or fullName in any case) and its provider's backend. `writes`:
   * the collaborator's write it is opened for (the resource named in a denial); on a local
   * repository it needs ownership of the connection (see localWrite).
   */
  async function open(
    request: FastifyRequest,
    idOrName: string,
    user: string | undefined,
    writes?: string,
  ): Promise<Opened> {
    const repo = await findRepository(db, idOrName);
    const provider = await findProvider(db, repo.provider_id);
    if (writes && provider.type === 'local')
      await enforce(request, localWrite(repo, writes), ctx.access);
    const opened = await backend(request, provider, repo.owner, repo.repo_name, user);
    return { ...opened, provider, repo } as Opened;
  }

  /** Who a local commit is by: `user` when given, else the caller (a key's owner, a service's person). */
  function author(request: FastifyRequest, user: string | undefined): Author {
    const identity = request.identity;
    const fallback = identity.kind === 'key' ? identity.name : 'anonymous';
    const email = user ?? personOf(identity) ?? `${fallback}@platform.local`;
    return { name: identity.kind === 'user' && !user ? identity.name : email.split('@')[0], email };
  }

  return { backend, open, author };
}
export type GitAccess = ReturnType<typeof gitAccess>;
