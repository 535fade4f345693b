import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { PlatformClient } from '@platform/client';
import { ApiError } from '../errors.js';
import type { AuthSettings } from './settings.js';
import { describeIdentity, type Identity } from './identity.js';
import {
  creatorOf,
  decide,
  documentAccess,
  owns,
  roleOf,
  ruleOf,
  type Access,
  type Decision,
  type Ownership,
  type Principal,
} from './policy.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route does and who may (libs/core/src/auth/policy.ts); every route declares it. */
    access?: Access;
  }
}

/** Finds the teams (catalog owners) a person is a member of, by email. */
export type TeamDirectory = (email: string) => Promise<readonly string[]>;

export interface AuthorizationOptions {
  authOn: boolean;
  /** Catalog owners listing the person among their members (besides the `groups` claim). */
  teams?: TeamDirectory;
  /** Records a denial of a signed-in caller in the audit trail. */
  audit?: (event: DenialEvent) => Promise<void>;
}

export interface DenialEvent {
  actor: string;
  resource: string;
  metadata: { method: string; path: string; action: string; missing: string; requestId: string };
}

/** Teams a caller is in without asking the catalog: a team key's own, a person's groups. */
const knownTeams = (identity: Identity): string[] =>
  identity.kind === 'key'
    ? identity.team
      ? [identity.team]
      : []
    : identity.kind === 'user'
      ? (identity.groups ?? [])
      : [];

/** The person whose catalog teams count: a signed-in user, or the owner of a personal key. */
const personOf = (identity: Identity) =>
  identity.kind === 'user' ? identity.email : identity.kind === 'key' ? identity.owner : null;

/** The caller with every team it is in (asks the directory once; never when not needed). */
export async function principalOf(
  identity: Identity,
  directory?: TeamDirectory,
): Promise<Principal> {
  const person = personOf(identity);
  const found = person && directory ? await directory(person).catch(() => []) : [];
  return { identity, teams: [...knownTeams(identity), ...found] };
}

/** Whether the caller may act on the resource as its owner (made it, collaborator, team, admin). */
export async function mayOwn(
  identity: Identity,
  ownership: Ownership,
  options: AuthorizationOptions,
): Promise<boolean> {
  if (!options.authOn || roleOf(identity, true) === 'admin') return true;
  if (owns({ identity, teams: knownTeams(identity) }, ownership)) return true;
  return owns(await principalOf(identity, options.teams), ownership);
}

/**
 * Who may see which rows of a private list: undefined for everyone's (admins, auth off), else the
 * creators and teams whose rows the caller sees.
 */
export async function visibleTo(
  identity: Identity,
  options: AuthorizationOptions,
): Promise<{ creators: string[]; teams: string[] } | undefined> {
  if (!options.authOn || roleOf(identity, true) === 'admin') return undefined;
  const principal = await principalOf(identity, options.teams);
  const me = creatorOf(identity);
  return { creators: me ? [me] : [], teams: [...principal.teams] };
}

/**
 * Applies `access` to a request: nothing when allowed, else throws 401 (no credentials) or 403
 * naming the resource and what is missing, after recording the denial in the audit trail.
 */
export async function enforce(
  request: FastifyRequest,
  access: Access,
  options: AuthorizationOptions,
): Promise<void> {
  const { identity } = request;
  const quick = { identity, teams: knownTeams(identity) };
  // Whose the resource is matters only to a caller that is neither anonymous nor an admin.
  const role = roleOf(identity, options.authOn);
  const needsOwner =
    options.authOn && ruleOf(access) === 'owner' && role !== undefined && role !== 'admin';
  const ownership = needsOwner ? await access.owner?.(request) : undefined;
  let decision: Decision = decide(quick, access, options.authOn, ownership);
  if (!decision.allowed && ownership && decision.missing.startsWith('ownership'))
    decision = decide(
      await principalOf(identity, options.teams),
      access,
      options.authOn,
      ownership,
    );
  if (decision.allowed) return;
  if (decision.status === 401)
    throw new ApiError(
      'UNAUTHORIZED',
      'Authentication required: sign in, or send an API key in X-API-Key',
    );
  const message = `${describeIdentity(identity)} may not ${access.action} ${access.resource}: it needs ${decision.missing}`;
  if (options.audit)
    await options
      .audit({
        actor: describeIdentity(identity),
        resource: access.resource,
        metadata: {
          method: request.method,
          path: request.url.split('?')[0],
          action: access.action,
          missing: decision.missing,
          requestId: request.id,
        },
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'denial not audited'));
  throw new ApiError('FORBIDDEN', message);
}

/**
 * Every route of `scope` must declare its access: start-up fails naming a route that does not.
 * The declaration goes into the OpenAPI document as `x-access`.
 */
export function requireAccess(route: RouteOptions, service: string) {
  const config = (route.config ?? {}) as { access?: Access; public?: boolean };
  const { access } = config;
  if (!access)
    throw new Error(
      `${service}: ${String(route.method)} ${route.url} declares no access (config.access)`,
    );
  // The authentication hook lets a public route's callers through without credentials.
  if (ruleOf(access) === 'public') config.public = true;
  route.config = config as typeof route.config;
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  schema['x-access'] = documentAccess(access);
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The declaration of the route this app would serve a request with, and its path parameters
     * (set by `recordAccess`): what the gateway's proxy decides a forwarded request by.
     */
    accessOf?: (
      method: string,
      url: string,
    ) => { access: Access; params: Record<string, string> } | undefined;
  }
}

/** Keeps every route's declaration in a router of `app`'s own, answered by `app.accessOf`. */
export function recordAccess(app: FastifyInstance) {
  const router = FindMyWay();
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) return;
    for (const method of [route.method].flat()) {
      if (!router.hasRoute(method as HTTPMethod, route.url))
        router.on(method as HTTPMethod, route.url, () => undefined, access);
    }
  });
  app.decorate('accessOf', (method: string, url: string) => {
    const found = router.find(method as HTTPMethod, url.split('?')[0]);
    if (!found) return undefined;
    return { access: found.store as Access, params: found.params as Record<string, string> };
  });
}

/** The access the route that `app` would serve this request with declares (a proxy's question). */
export function accessOfRoute(app: FastifyInstance, method: string, url: string) {
  return app.accessOf?.(method, url);
}

/**
 * What a new resource records of who owns it: its creator (the caller) and the team it names, a
 * team the caller is in (any, for an admin); 403 naming the team otherwise.
 */
export async function ownershipFor(
  identity: Identity,
  team: string | null | undefined,
  options: AuthorizationOptions,
): Promise<Ownership> {
  const createdBy = creatorOf(identity);
  if (!team) return { createdBy, team: identity.kind === 'key' ? identity.team : null };
  if (!options.authOn || roleOf(identity, true) === 'admin') return { createdBy, team };
  const principal = await principalOf(identity, options.teams);
  if (!principal.teams.some((t) => t.toLowerCase() === team.toLowerCase()))
    throw new ApiError(
      'FORBIDDEN',
      `${describeIdentity(identity)} may not name team ${team}: only its members (the catalog owner's members or the groups claim) and admins may`,
    );
  return { createdBy, team };
}

/** The ownership columns of a new row: the caller, and the team it names (403 if not theirs). */
export async function ownershipColumns(
  identity: Identity,
  team: string | null | undefined,
  options: AuthorizationOptions,
) {
  const owner = await ownershipFor(identity, team, options);
  return { created_by: owner.createdBy, team: owner.team };
}

/** The team an update sets: undefined keeps it, null clears it, a name is checked as on create. */
export async function teamChange(
  identity: Identity,
  team: string | null | undefined,
  options: AuthorizationOptions,
) {
  if (team == null) return team;
  return (await ownershipFor(identity, team, options)).team;
}

/**
 * The hook: every route of `scope` must declare its access (start-up fails otherwise), and every
 * request to one that is not public is decided by its declaration before its body is validated.
 */
export function authorizeRequests(
  scope: FastifyInstance,
  service: string,
  options: AuthorizationOptions,
) {
  scope.addHook('onRoute', (route) => {
    requireAccess(route, service);
    const access = (route.config as { access: Access }).access;
    if (ruleOf(access) === 'public') return;
    const decide = async (request: FastifyRequest) => enforce(request, access, options);
    const existing = route.preValidation;
    route.preValidation = [decide, ...(existing ? [existing].flat() : [])] as typeof existing;
  });
}

const TEAMS_TTL_MS = 30_000;

/**
 * The policy's options for a service: its teams directory (the catalog's owners that list a
 * person among their members, asked through the platform client and believed for 30 s) and its
 * audit of denials (an `access.denied` event in the ledger).
 */
export function authorizationOptions(
  service: string,
  platform: PlatformClient,
  auth: AuthSettings,
): AuthorizationOptions {
  const cache = new Map<string, { teams: readonly string[]; until: number }>();
  const teams: TeamDirectory = async (email) => {
    const key = email.toLowerCase();
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.teams;
    const owners = await platform.catalog.listOwners({ query: { member: key, limit: 1000 } });
    // A catalog owner outside the default namespace is the team `namespace/name` (issue 37).
    const found = owners.map((owner) =>
      owner.namespace && owner.namespace !== 'default'
        ? `${owner.namespace}/${owner.name}`
        : owner.name,
    );
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { teams: found, until: Date.now() + TEAMS_TTL_MS });
    return found;
  };
  const audit = async (event: DenialEvent) => {
    await platform.ledger.createEvent({
      body: { action: 'access.denied', service, ...event, timestamp: new Date().toISOString() },
    });
  };
  return { authOn: auth.enabled, teams, audit };
}
