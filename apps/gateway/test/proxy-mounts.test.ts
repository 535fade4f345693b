import { newApiKey } from '@platform/passport';
import { listen, serviceUnderTest, type ServiceUnderTest } from '@platform/testing';
import { stage } from '@platform/stage';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// A service answers under more than its prefix (the sandbox: /api/v1/studio, /preview, /app):
// STAGE_PROXY_URL (spec 1, sandbox proxy mode) forwards all of them, and the flag gates all.

let gw: GatewayUnderTest;
let standalone: ServiceUnderTest;
beforeAll(async () => {
  standalone = await serviceUnderTest(stage);
  gw = await gatewayUnderTest({ STAGE_PROXY_URL: await listen(standalone.app) });
});
afterAll(async () => {
  await gw.close();
  await standalone.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, host?: string) =>
  gw.app.inject({ method, url, ...(payload ? { payload } : {}), headers: host ? { host } : {} });

/** The host of an app's (`apps`) or a session's preview (`preview`) own origin. */
const hostOf = (id: string, kind: 'apps' | 'preview') =>
  `${Buffer.from(id).toString('hex')}.${kind}.localhost:3000`;

it('forwards the prefix and every mount to the standalone sandbox, and gates them with its flag', async () => {
  const { id } = (await call('POST', '/api/v1/stage/sessions')).json().data;
  await call('POST', `/api/v1/stage/sessions/${id}/push`, {
    files: { '/app/main.ts': 'document.title = "proxied";' },
  });
  expect(
    (await call('POST', `/api/v1/stage/sessions/${id}/render`, { entry: '/app/main.ts' }))
      .statusCode,
  ).toBe(200);
  const app = (await call('POST', '/api/v1/stage/apps', { sessionId: id, name: 'proxied' })).json()
    .data;

  // Everything lives in the standalone service's database, none in the gateway's.
  const own = await gw.db.kysely.withSchema('stage').selectFrom('sessions').selectAll().execute();
  expect(own).toEqual([]);

  // The preview's and the app's own origins are routed by Host to the standalone service.
  const bundle = (id: string) => call('GET', '/__render/bundle.js', undefined, hostOf(id, 'preview')); // prettier-ignore
  const preview = await bundle(id);
  expect([preview.statusCode, preview.headers['x-served-by']]).toEqual([200, undefined]);
  expect(preview.body).toContain('proxied');
  expect(preview.headers['content-security-policy']).toContain("connect-src 'self'");
  expect((await call('GET', '/', undefined, hostOf(app.sid, 'apps'))).statusCode).toBe(200);
  // The old address sends the browser there; the content is never on the platform's host.
  const old = await call('GET', `/app/${app.sid}/x`);
  expect([old.statusCode, old.headers.location]).toEqual([302, `http://${hostOf(app.sid, 'apps').replace(':3000', '')}/x`]); // prettier-ignore
  const label = Buffer.from(id).toString('hex');
  expect((await call('GET', `/__previews/${label}/__render/bundle.js`)).statusCode).toBe(404);
  const studio = await call('POST', '/api/v1/studio/sessions', { appSid: app.sid });
  expect(studio.statusCode).toBe(201);
  const listed = (await call('GET', `/api/v1/studio/sessions?appSid=${app.sid}`)).json().data;
  expect(listed.map((s: { id: string }) => s.id)).toEqual([studio.json().data.id]);

  await call('PUT', '/api/v1/features/stage', { enabled: false });
  for (const url of [`/api/v1/studio/sessions?appSid=${app.sid}`, `/api/v1/stage/apps`]) {
    const res = await call('GET', url);
    expect([url, res.statusCode, res.json().error.code]).toEqual([url, 404, 'NOT_FOUND']);
  }
  // Pages of a disabled service fall through to the dashboard, as any unknown page does; its
  // content origins answer 404.
  expect((await call('GET', `/preview/${id}/`)).body).toContain('<title>Platform</title>');
  const off = await bundle(id);
  expect([off.statusCode, off.json().error.code]).toEqual([404, 'NOT_FOUND']);
  await call('PUT', '/api/v1/features/stage', { enabled: true });
  expect((await bundle(id)).statusCode).toBe(200);
});

describe('with authentication on', () => {
  const AUTH = {
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'proxy-mounts-client-secret',
    SESSION_SECRET: 'proxy-mounts-session-secret-0123456789',
  };
  const KEY = newApiKey();
  let secured: GatewayUnderTest;
  let service: ServiceUnderTest;
  beforeAll(async () => {
    service = await serviceUnderTest(stage, { env: AUTH });
    secured = await gatewayUnderTest({
      ...AUTH,
      PLATFORM_API_KEY: KEY,
      STAGE_PROXY_URL: await listen(service.app),
    });
  });
  afterAll(async () => {
    await secured.close();
    await service.close();
  });

  it("decides by the sandbox's declarations: a preview's origin asks its visitor to sign in", async () => {
    const as = (
      method: 'GET' | 'POST',
      url: string,
      payload?: object,
      key?: string,
      host?: string,
    ) =>
      // prettier-ignore
      secured.app.inject({
        method,
        url,
        ...(payload ? { payload } : {}),
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(host ? { host } : {}) },
      });
    const { id } = (await as('POST', '/api/v1/stage/sessions', {}, KEY)).json().data;
    await as(
      'POST',
      `/api/v1/stage/sessions/${id}/push`,
      { files: { '/app/main.ts': 'x()' } },
      KEY,
    );
    expect(
      (await as('POST', `/api/v1/stage/sessions/${id}/render`, { entry: '/app/main.ts' }, KEY))
        .statusCode,
    ).toBe(200);
    // On its own origin, page and files alike: to the platform, to sign in and come back.
    for (const path of ['/', '/__render/bundle.js']) {
      const page = await as('GET', path, undefined, undefined, hostOf(id, 'preview'));
      expect([page.statusCode, page.headers.location]).toEqual([302, expect.stringMatching(`^http://localhost:3000/preview/${id}/__signin\\?to=${encodeURIComponent(path)}&state=[\\w-]{32}$`)]); // prettier-ignore
    }
    // There, a person is handed over; a key is not a person; no one signed in is sent to sign in.
    expect((await as('GET', `/preview/${id}/__signin`, undefined, KEY)).statusCode).toBe(403);
    const anonymous = await as('GET', `/preview/${id}/__signin?to=%2F`);
    expect([anonymous.statusCode, anonymous.headers.location]).toEqual([302, `/api/v1/passport/login?returnTo=${encodeURIComponent(`/preview/${id}/__signin?to=%2F`)}`]); // prettier-ignore
    expect((await as('GET', `/api/v1/stage/sessions/${id}/status`)).statusCode).toBe(401);
    expect((await as('GET', `/api/v1/studio/sessions`)).statusCode).toBe(401);
  });
});
