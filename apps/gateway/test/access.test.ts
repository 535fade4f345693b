import {
  cookieBrowser,
  listen,
  startOpenIdProvider,
  type CookieBrowser,
  type Json,
  type OpenIdProvider,
} from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Issue 31 through the gateway, as people signed in with a browser: platform configuration is the
// admins', a role change holds from the next request, every denial reaches the audit trail, and
// the session cookie alone never changes anything from another site.

let idp: OpenIdProvider;
let gw: GatewayUnderTest;
let base: string;
const ada = cookieBrowser(); // a member
const grace = cookieBrowser(); // an admin (AUTH_ADMINS)

async function signIn(browser: CookieBrowser, email: string) {
  await idp.setClaims({ email, email_verified: true, name: email });
  const login = await browser.get(`${base}/api/v1/passport/login`);
  const authorize = await browser.get(login.headers.get('location') as string);
  const callback = await browser.get(authorize.headers.get('location') as string);
  expect(callback.status).toBe(302);
}

beforeAll(async () => {
  idp = await startOpenIdProvider();
  gw = await gatewayUnderTest({
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-access-test',
    AUTH_ADMINS: 'grace@example.com',
    LEDGER_RETENTION_INTERVAL_MS: '0',
  });
  base = await listen(gw.app);
  await signIn(ada, 'ada@example.com');
  await signIn(grace, 'grace@example.com');
});
afterAll(async () => {
  await gw.close();
  await idp.stop();
});

const send = async (browser: CookieBrowser, method: string, path: string, body?: object) => {
  const res = await browser.request(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Json };
};

it("keeps feature flags the admins': a member cannot take sign-in away from everyone", async () => {
  const attack = await send(ada, 'PUT', '/api/v1/features/passport', { enabled: false });
  expect(attack.status).toBe(403);
  expect(attack.body.error.message).toBe(
    'ada@example.com may not update gateway.feature: it needs the role admin',
  );
  const flag = await send(ada, 'GET', '/api/v1/features/passport');
  expect(flag.body.data).toMatchObject({ enabled: true, override: null });
  const cleared = await send(grace, 'DELETE', '/api/v1/features/pulse');
  expect(cleared.status).toBe(200);
});

it('records every denial of a signed-in caller in the audit trail', async () => {
  await send(ada, 'POST', '/api/v1/ledger/policies', { name: 'wipe', retentionDays: 0 });
  // Recorded before the 403 is answered.
  const res = await send(grace, 'GET', '/api/v1/ledger/events?action=access.denied');
  const denials = (res.body.data as Json[]).filter((e) => e.resource === 'ledger.policy');
  expect(denials[0]).toMatchObject({
    actor: 'ada@example.com',
    service: 'ledger',
    metadata: expect.objectContaining({
      method: 'POST',
      path: '/api/v1/ledger/policies',
      missing: 'the role admin',
    }),
  });
});

it("holds a role change from the person's next request", async () => {
  expect((await send(ada, 'POST', '/api/v1/pulse/events', { name: 'before' })).status).toBe(201);
  const set = await send(grace, 'PUT', '/api/v1/passport/users/ada@example.com/role', {
    role: 'viewer',
  });
  expect(set.status).toBe(200);
  const after = await send(ada, 'POST', '/api/v1/pulse/events', { name: 'after' });
  expect(after.status).toBe(403);
  expect(after.body.error.message).toMatch(/needs the role member/);
  expect((await send(ada, 'GET', '/api/v1/pulse/events')).status).toBe(200);
  await send(grace, 'PUT', '/api/v1/passport/users/ada@example.com/role', { role: 'member' });
});

describe('the session cookie from another site', () => {
  const forged = (path: string, headers: Record<string, string>) =>
    ada.request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'forged' }),
    });

  it.each([
    ['no Origin nor Sec-Fetch-Site', { origin: '' }],
    ['another Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (a sandbox origin)', { 'sec-fetch-site': 'same-site' }],
  ])('changes nothing with %s, on every route', async (_, headers) => {
    for (const path of ['/api/v1/pulse/events', '/stage/any-app/api/orders']) {
      const res = await forged(path, headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as Json).error.message).toMatch(/^Cross-site request refused/);
    }
    const listed = await send(grace, 'GET', '/api/v1/pulse/events?name=forged');
    expect(listed.body.data).toEqual([]);
  });

  it('works from the platform’s own pages, and for reads from anywhere', async () => {
    const own = await forged('/api/v1/pulse/events', { 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(201);
    const read = await ada.request(`${base}/api/v1/pulse/events`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(read.status).toBe(200);
  });
});
