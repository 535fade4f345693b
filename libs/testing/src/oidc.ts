import { fork } from 'node:child_process';
import { join } from 'node:path';
import { CookieJar } from 'tough-cookie';
import type { Json } from './service.js';

/** Who the identity provider says signs in (the ID token's claims). */
export interface Claims {
  email?: string;
  email_verified?: boolean;
  name?: string;
  nonce?: string;
  /** Group names (Keycloak, Okta and Entra ID send them when asked). */
  groups?: string[];
}

/** A token the provider handed out. */
export interface Issued {
  grantType: string;
  accessToken: string;
  refreshToken?: string;
}

/**
 * A real OpenID provider on localhost (oauth2-mock-server, in its own process: see
 * fixtures/openid-provider.mjs). `setClaims` puts claims into the next ID tokens; `issued` lists
 * the tokens it handed out.
 */
export async function startOpenIdProvider() {
  const child = fork(join(__dirname, '..', 'fixtures', 'openid-provider.mjs'), [], {
    stdio: 'inherit',
  });
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
  return {
    url,
    setClaims: (claims: Claims) => ask<void>('claims', { claims }),
    issued: () => ask<Issued[]>('issued'),
    stop: () => ask<void>('stop'),
  };
}
export type OpenIdProvider = Awaited<ReturnType<typeof startOpenIdProvider>>;

/** A fetch response whose JSON body each test reads in the shape it expects. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<Json> };

/** A browser: keeps cookies, follows no redirect by itself. */
export function cookieBrowser() {
  const jar = new CookieJar();
  async function request(url: string, init: RequestInit = {}) {
    const cookie = await jar.getCookieString(url);
    // As a browser on the platform's own page: a request that is not a GET says its origin.
    const method = (init.method ?? 'GET').toUpperCase();
    const origin: Record<string, string> =
      method === 'GET' || method === 'HEAD' ? {} : { origin: new URL(url).origin };
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...origin,
        ...(cookie ? { cookie } : {}),
        ...(init.headers as Record<string, string>),
      },
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
export type CookieBrowser = ReturnType<typeof cookieBrowser>;
