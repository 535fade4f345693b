import type { FastifyRequest } from 'fastify';
import type { Identity, Role } from './identity.js';

// The platform's one access policy (issue 31, after Backstage's permission framework): every route
// declares what it does (`config.access`: a resource type, an action, and who may), and `decide`
// alone answers whether a caller may; routes never check rights by hand.

/** What a route does to its resource. */
export const ACTIONS = [
  'read',
  'create',
  'update',
  'delete',
  'invoke',
  'ingest',
  'manage',
] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Who may: `public` anyone, signed in or not; `viewer` any signed-in caller; `member` members and
 * admins; `owner` the resource's creator, its team and admins (members only, for a change);
 * `admin` admins only.
 */
export const RULES = ['public', 'viewer', 'member', 'owner', 'admin'] as const;
export type Rule = (typeof RULES)[number];

/** Who owns one resource: the person (email, or `key:<name>`) who made it and its team. */
export interface Ownership {
  createdBy: string | null;
  team: string | null;
  /** People (emails) who may also read it and change it, as its creator (sandbox sessions). */
  collaborators?: readonly string[];
}

/** A route's declaration (`config.access`). */
export interface Access {
  /** `<service>.<kind>`, e.g. `catalog.service`. */
  resource: string;
  action: Action;
  /** Default: `viewer` to read, `member` for anything else. */
  rule?: Rule;
  /**
   * The scope a key needs. Default: `admin` under the admin rule, else `<service>:read` to read
   * and `<service>:write` for anything else; null: none, any valid key (who a key is, which every
   * key may learn).
   */
  scope?: string | null;
  /**
   * Under the `owner` rule, who owns the resource the request names; undefined when there is no
   * such resource (the handler then answers 404).
   */
  owner?: (request: FastifyRequest) => Promise<Ownership | undefined>;
  /**
   * Where else the API key may come from, for clients that cannot send `X-API-Key`: only routes
   * that say so accept these; everywhere else the key is `X-API-Key` alone.
   * - `bearer`: `Authorization: Bearer <key>` (the OpenAI and Anthropic SDKs);
   * - `basic-user`: HTTP Basic, the key as the user name, any password (Segment's write key);
   * - `basic-password`: HTTP Basic, the key as the password, any user name (git, as Gitea and
   *   GitHub take tokens);
   * - `{ body }`: a field of the request's body (PostHog's `api_key`, Segment's `writeKey`), read
   *   by the route's own reader once the body is parsed (decompressed, decoded); only when no
   *   other credentials came.
   */
  keyFrom?: ReadonlyArray<KeySource>;
  /**
   * Browsers on any site may call it: CORS answers `Access-Control-Allow-Origin: *` (never with
   * credentials: no cookie counts) whatever `CORS_ORIGINS` says. For ingestion with write-only
   * keys (an analytics snippet on a customer's pages); every other route keeps `CORS_ORIGINS`.
   */
  anyOrigin?: boolean;
}

/** The places besides `X-API-Key` a route may take the API key from (see Access.keyFrom). */
export type KeySource = 'bearer' | 'basic-user' | 'basic-password' | BodyKey;

/**
 * The key is in the body: `body` reads it from what the route's parsers made of the body, or,
 * where the body is still the bytes as sent (the gateway's proxy), from a Buffer; undefined when
 * there is none.
 */
export interface BodyKey {
  body: (body: unknown, request: FastifyRequest) => string | undefined;
}

/** A declaration as the OpenAPI document carries it (`x-access`) and the README's table shows it. */
export interface AccessDocument {
  resource: string;
  action: Action;
  rule: Rule;
  scope: string | null;
}

export const ruleOf = (access: Access): Rule =>
  access.rule ?? (access.action === 'read' ? 'viewer' : 'member');

export function scopeOf(access: Access): string | null {
  const rule = ruleOf(access);
  if (rule === 'public') return null;
  if (access.scope !== undefined) return access.scope;
  if (rule === 'admin') return 'admin';
  const service = access.resource.split('.')[0];
  return `${service}:${access.action === 'read' ? 'read' : 'write'}`;
}

export const documentAccess = (access: Access): AccessDocument => ({
  resource: access.resource,
  action: access.action,
  rule: ruleOf(access),
  scope: scopeOf(access),
});

/**
 * The scopes a key may carry: `admin` (everything an admin may: platform configuration, keys),
 * `*` or `*:read`/`*:write` (every service, but not what needs `admin`), `<service>:read` (reads), `<service>:write` (reads and writes), and the narrow
 * ones `pulse:ingest` (send events, nothing else: safe in a browser) and `inference:invoke`
 * (call models).
 */
export const SCOPE_FORMAT = /^(admin|\*|\*:(read|write)|[a-z]+:(read|write|ingest|invoke|\*))$/;

const VERBS: Record<string, readonly string[]> = {
  read: ['read', 'write', '*'],
  write: ['write', '*'],
  ingest: ['ingest', 'write', '*'],
  invoke: ['invoke', 'write', '*'],
};

/** Whether `scopes` grant `needed` (`<service>:<verb>` or `admin`); `*` is every service, not admin. */
export function grants(scopes: readonly string[], needed: string): boolean {
  if (scopes.includes('admin')) return true;
  if (needed === 'admin') return false;
  if (scopes.includes('*')) return true;
  const [service, verb] = needed.split(':');
  const verbs = VERBS[verb] ?? [verb];
  return scopes.some((scope) => {
    const [s, v] = scope.split(':');
    return (s === service || s === '*') && verbs.includes(v);
  });
}

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };
export const atLeast = (role: Role, floor: Role) => RANK[role] >= RANK[floor];

/** The role a caller acts with; platform services act for the platform itself. */
export function roleOf(identity: Identity, authOn: boolean): Role | undefined {
  switch (identity.kind) {
    case 'user':
    case 'key':
      return identity.role;
    case 'service':
      return 'admin';
    default:
      return authOn ? undefined : 'admin';
  }
}

/** What a caller is: its email when it is a person (or a person's key), and its teams. */
export interface Principal {
  identity: Identity;
  /** Catalog owners the caller is a member of (by email or `groups`); a team key's own team. */
  teams: readonly string[];
}

/** `createdBy` as a resource records it: an email, `key:<name>` for a team key, or null. */
export function creatorOf(identity: Identity): string | null {
  switch (identity.kind) {
    case 'user':
      return identity.email;
    case 'key':
      return identity.owner ?? `key:${identity.name}`;
    case 'service':
      return identity.user ?? null;
    default:
      return null;
  }
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Whether the caller owns the resource: made it, is a collaborator, or is in its team. */
export function owns(principal: Principal, ownership: Ownership): boolean {
  const me = creatorOf(principal.identity);
  if (same(me, ownership.createdBy)) return true;
  if (me && ownership.collaborators?.some((c) => same(c, me))) return true;
  return !!ownership.team && principal.teams.some((team) => same(team, ownership.team));
}

export type Decision = { allowed: true } | { allowed: false; status: 401 | 403; missing: string };

const ALLOW: Decision = { allowed: true };

/**
 * The one decision: may this caller do this, on this resource (when the rule is `owner`)?
 * Authentication off: everyone may do everything. A denial names what is missing (a role, a
 * scope, or ownership).
 */
export function decide(
  principal: Principal,
  access: Access,
  authOn: boolean,
  ownership?: Ownership,
): Decision {
  const rule = ruleOf(access);
  if (!authOn || rule === 'public') return ALLOW;
  const { identity } = principal;
  const role = roleOf(identity, authOn);
  if (!role) return { allowed: false, status: 401, missing: 'authentication' };
  const scope = scopeOf(access);
  if (identity.kind === 'key' && scope !== null && !grants(identity.scopes, scope))
    return denied(`the scope ${scope}`);
  const writes = access.action !== 'read';
  switch (rule) {
    case 'viewer':
      return ALLOW;
    case 'member':
      return atLeast(role, 'member') ? ALLOW : denied('the role member (or admin)');
    case 'admin':
      return role === 'admin' ? ALLOW : denied('the role admin');
    case 'owner':
      if (role === 'admin') return ALLOW;
      if (writes && !atLeast(role, 'member')) return denied('the role member (or admin)');
      if (!ownership) return ALLOW; // no such resource: the handler answers 404
      return owns(principal, ownership)
        ? ALLOW
        : denied(
            ownership.createdBy || ownership.team
              ? `ownership (it belongs to ${[ownership.createdBy, ownership.team && `team ${ownership.team}`].filter(Boolean).join(' and ')})`
              : 'the role admin (it belongs to no one)',
          );
  }
}

const denied = (missing: string): Decision => ({ allowed: false, status: 403, missing });
