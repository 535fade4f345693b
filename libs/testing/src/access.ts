import { IDENTITY_HEADER, signIdentity, type Identity, type Role } from '@platform/core';
import type { App } from '@platform/core';
import type { Json, JsonApi } from './service.js';

/** Authentication on, with a session secret every test shares (no provider is ever asked). */
export const AUTH_ENV = {
  OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
  OIDC_CLIENT_ID: 'platform-tests',
  OIDC_CLIENT_SECRET: 'platform-tests-secret',
  SESSION_SECRET: 'a session secret of the tests, 32+ chars',
} as const;

/** A signed-in person. */
export const person = (email: string, role: Role = 'member', groups: string[] = []): Identity => ({
  kind: 'user',
  email,
  name: email.split('@')[0],
  sessionId: `s-${email}`,
  role,
  groups,
});

/** A caller with an API key of these scopes (a personal key of `owner`, or a team key). */
export const keyCaller = (
  scopes: string[],
  options: { role?: Role; owner?: string | null; team?: string | null; name?: string } = {},
): Identity => ({
  kind: 'key',
  keyId: `k-${options.name ?? scopes.join('-')}`,
  name: options.name ?? `key-${scopes.join('-')}`,
  role: options.role ?? 'member',
  scopes,
  owner: options.owner === undefined ? 'keyholder@example.com' : options.owner,
  team: options.team ?? null,
});

/**
 * The callers of an access test: an admin, the owner of what the test makes, a member of its
 * team (by the `groups` claim), a member who is neither, a viewer, and anonymous (undefined).
 */
export const CALLERS = {
  admin: person('root@example.com', 'admin'),
  owner: person('owner@example.com', 'member'),
  teamMate: person('mate@example.com', 'member', ['payments']),
  stranger: person('stranger@example.com', 'member'),
  viewer: person('viewer@example.com', 'viewer'),
} as const;

/** The header that carries `identity` to a service, signed as the gateway signs it. */
export async function identityHeaders(identity: Identity | undefined) {
  if (!identity) return {};
  return { [IDENTITY_HEADER]: await signIdentity(AUTH_ENV.SESSION_SECRET, identity) };
}

/** JSON requests to `app` under `prefix` as `identity` (anonymous when undefined). */
export function jsonApiAs(app: App, prefix: string, identity: Identity | undefined): JsonApi {
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `${prefix}${url}`,
      headers: await identityHeaders(identity),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    let body: Json;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body };
  };
  return {
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload ?? {}),
    put: (url, payload) => call('PUT', url, payload),
    patch: (url, payload) => call('PATCH', url, payload),
    del: (url) => call('DELETE', url),
  };
}
