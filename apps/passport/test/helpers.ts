import { sql } from '@platform/db';
import {
  cookieBrowser,
  listen,
  serviceUnderTest,
  startOpenIdProvider,
  type Claims,
  type CookieBrowser,
  type OpenIdProvider,
  type ServiceUnderTest,
} from '@platform/testing';
import type { Env } from '@platform/core';
import { passport } from '../src/index';

export const PREFIX = '/api/v1/passport';
export const SESSION_SECRET = 'a-session-secret-of-at-least-32-characters!';
export const CLIENT_SECRET = 'the-oidc-client-secret-planted-in-tests';

export type { Claims };
export const startIdp = startOpenIdProvider;
export type Idp = OpenIdProvider;

export const ADA: Claims = { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' };

export const authEnv = (idp: Idp, extra: Env = {}): Env => ({
  OIDC_ISSUER: idp.url,
  OIDC_CLIENT_ID: 'platform-client',
  OIDC_CLIENT_SECRET: CLIENT_SECRET,
  SESSION_SECRET,
  ...extra,
});

/** Passport on a real port, authenticating its own requests. */
export async function startPassport(
  env: Env,
  options: Parameters<typeof serviceUnderTest>[1] = {},
) {
  const svc = await serviceUnderTest(passport, { env, jobs: { pollMs: 50 }, ...options });
  const base = await listen(svc.app);
  return { svc, base };
}

export const browser = cookieBrowser;
export type Browser = CookieBrowser;

const location = (res: Response) => res.headers.get('location') ?? '';

/**
 * Signs in through the identity provider: /login, the provider's redirect, the callback. Answers
 * the callback's response (302 to returnTo on success).
 */
export async function signIn(base: string, b: Browser = browser(), query = '') {
  const login = await b.get(`${base}${PREFIX}/login${query}`);
  expect(login.status).toBe(302);
  const authorize = await b.get(location(login));
  expect(authorize.status).toBe(302);
  const callbackUrl = location(authorize);
  const callback = await b.get(callbackUrl);
  return { browser: b, login, callbackUrl, callback, location: location(callback) };
}

/** Every text of every row of passport's tables, to search for planted secrets. */
export async function everyStoredText(svc: ServiceUnderTest): Promise<string> {
  const tables = ['sessions', 'api_keys', 'login_states', 'providers', 'connections', 'jobs'];
  const texts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{
      row: string;
    }>`select t::text as row from ${sql.table(`passport.${table}`)} t`.execute(svc.db.kysely);
    texts.push(...rows.map((r) => r.row));
  }
  return texts.join('\n');
}

export { location };
