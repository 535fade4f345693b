import { fork } from 'node:child_process';
import { join } from 'node:path';
import { CookieJar } from 'tough-cookie';
import { sql } from '@platform/db';
import { listen, serviceUnderTest, type Json, type ServiceUnderTest } from '@platform/testing';
import type { Env } from '@platform/core';
import { passport } from '../src/index';

export const PREFIX = '/api/v1/passport';
export const SESSION_SECRET = 'a-session-secret-of-at-least-32-characters!';
export const CLIENT_SECRET = 'the-oidc-client-secret-planted-in-tests';

/** Who the identity provider says signs in (the ID token's claims). */
export interface Claims {
  email?: string;
  email_verified?: boolean;
  name?: string;
  nonce?: string;
}

export interface Issued {
  grantType: string;
  accessToken: string;
  refreshToken?: string;
}

/**
 * A real OpenID provider on localhost (oauth2-mock-server, in its own process: see
 * fixtures/idp.mjs). `setClaims` puts claims into the next ID tokens; `issued` lists the tokens
 * it handed out.
 */
export async function startIdp() {
  const child = fork(join(__dirname, 'fixtures/idp.mjs'), [], { stdio: 'inherit' });
  let next = 0;
  const waiting = new Map<number, (data: unknown) => void>();
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.on(
      'message',
      (message: { ready?: boolean; url?: string; id?: number; data?: unknown }) => {
        if (message.ready) resolve(message.url as string);
        else waiting.get(message.id as number)?.(message.data);
      },
    );
  });
  const ask = <T>(type: string, extra: object = {}) =>
    new Promise<T>((resolve) => {
      const id = next++;
      waiting.set(id, (data) => resolve(data as T));
      child.send({ id, type, ...extra });
    });
  const idp = {
    url,
    setClaims: (claims: Claims) => ask<void>('claims', { claims }),
    issued: () => ask<Issued[]>('issued'),
    stop: () => ask<void>('stop'),
  };
  return idp;
}
export type Idp = Awaited<ReturnType<typeof startIdp>>;

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

/** A fetch response whose JSON body each test reads in the shape it expects. */
type JsonResponse = Omit<Response, 'json'> & { json(): Promise<Json> };

/** A browser: keeps cookies, follows no redirect by itself. */
export function browser() {
  const jar = new CookieJar();
  async function request(url: string, init: RequestInit = {}) {
    const cookie = await jar.getCookieString(url);
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    for (const header of res.headers.getSetCookie()) await jar.setCookie(header, url);
    return res as JsonResponse;
  }
  return {
    jar,
    request,
    get: (url: string) => request(url),
    /** The cookie's value the browser holds for `url`. */
    cookie: async (url: string, name: string) =>
      (await jar.getCookies(url)).find((c) => c.key === name)?.value,
  };
}
export type Browser = ReturnType<typeof browser>;

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
