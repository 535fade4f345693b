import { buildServiceApp, authSettings, type App } from '@platform/core';
import { pulse } from '@platform/pulse';
import {
  cookieBrowser,
  deadUrl,
  eventually,
  listen,
  startOpenIdProvider,
  type CookieBrowser,
  type OpenIdProvider,
} from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// A person signing in through the gateway, as a browser does it: a page sends them to the
// identity provider (a real OpenID provider on localhost) and back with a session cookie, which
// then opens the pages and every API, a proxied standalone service's included, until they sign
// out or their session is ended.

let idp: OpenIdProvider;
let gw: GatewayUnderTest;
let base: string;
let standalone: App;

beforeAll(async () => {
  idp = await startOpenIdProvider();
  const env = {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-sign-in-test',
    // Ada reads the audit trail below: the admins' to read.
    AUTH_ADMINS: 'ada@example.com',
  };
  const pulseUrl = await deadUrl();
  gw = await gatewayUnderTest({ ...env, PULSE_PROXY_URL: pulseUrl });
  base = await listen(gw.app);
  standalone = await buildServiceApp(pulse, {
    database: gw.db,
    config: undefined,
    jobs: false,
    auth: authSettings(env),
    platform: { url: base },
  });
  await standalone.listen({ port: Number(new URL(pulseUrl).port), host: '127.0.0.1' });
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
});
afterAll(async () => {
  await standalone.close();
  await gw.close();
  await idp.stop();
});

const location = (res: { headers: Headers }) => res.headers.get('location') ?? '';

/** Opens a page as a browser without a session: to sign in, through the provider, and back. */
async function signInThroughPage(browser: CookieBrowser, page: string) {
  const first = await browser.get(`${base}${page}`);
  expect(first.status).toBe(302);
  expect(location(first)).toBe(`/api/v1/passport/login?returnTo=${encodeURIComponent(page)}`);
  const login = await browser.get(`${base}${location(first)}`);
  expect(login.status).toBe(302);
  expect(location(login).startsWith(idp.url)).toBe(true);
  const authorize = await browser.get(location(login));
  expect(authorize.status).toBe(302);
  const callback = await browser.get(location(authorize));
  expect(callback.status).toBe(302);
  expect(location(callback)).toBe(page);
}

it('signs a person in from a page and back, and the cookie opens pages and APIs', async () => {
  const browser = cookieBrowser();
  await signInThroughPage(browser, '/ledger/?tab=events');
  expect(await browser.cookie(base, 'platform_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);

  expect((await browser.get(`${base}/ledger/?tab=events`)).status).toBe(200);
  const me = await (await browser.get(`${base}/api/v1/passport/me`)).json();
  expect(me.data).toMatchObject({ kind: 'user', email: 'ada@example.com', name: 'Ada Lovelace' });
  expect((await browser.get(`${base}/api/v1/health`)).status).toBe(200);
  // Through the proxy: the standalone service gets the person's identity signed by the gateway.
  const event = await browser.request(`${base}/api/v1/pulse/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'signed-in' }),
  });
  expect(event.status).toBe(201);
  expect(event.headers.get('x-served-by')).toBeNull();
  // The identity service's audit trail reaches the ledger (a durable job, through libs/client).
  const trail = async () =>
    (await (await browser.get(`${base}/api/v1/ledger/events?action=user.signin`)).json()).data;
  await eventually(async () => (await trail()).length > 0, {
    timeout: 10_000,
    what: 'the sign-in in the ledger',
  });
  expect((await trail())[0]).toMatchObject({ action: 'user.signin', actor: 'ada@example.com' });
});

it('closes everything once the person signs out', async () => {
  const browser = cookieBrowser();
  await signInThroughPage(browser, '/docs');
  const out = await browser.request(`${base}/api/v1/passport/logout`, { method: 'POST' });
  expect((await out.json()).data).toEqual({ signedOut: true });
  expect((await browser.get(`${base}/api/v1/health`)).status).toBe(401);
  expect((await browser.get(`${base}/api/v1/pulse/events`)).status).toBe(401);
  expect((await browser.get(`${base}/docs`)).status).toBe(302);
});

it('closes everything at once when the session is ended elsewhere', async () => {
  const browser = cookieBrowser();
  await signInThroughPage(browser, '/');
  const other = cookieBrowser();
  await signInThroughPage(other, '/');
  const me = (await (await browser.get(`${base}/api/v1/passport/me`)).json()).data;
  const ended = await other.request(`${base}/api/v1/passport/sessions/${me.sessionId}`, {
    method: 'DELETE',
  });
  expect(ended.status).toBe(200);
  const res = await browser.get(`${base}/api/v1/health`);
  expect(res.status).toBe(401);
  expect((await res.json()).error.message).toBe('Your session has ended; sign in again');
  const page = await browser.get(`${base}/catalog/`);
  expect(page.status).toBe(302);
  expect(location(page)).toBe('/api/v1/passport/login?returnTo=%2Fcatalog%2F');
  expect((await other.get(`${base}/api/v1/health`)).status).toBe(200);
});
