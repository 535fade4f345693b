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

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  gw.app.inject({ method, url, ...(payload ? { payload } : {}) });

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

  const preview = await call('GET', `/preview/${id}/__render/bundle.js`);
  expect([preview.statusCode, preview.headers['x-served-by']]).toEqual([200, undefined]);
  expect(preview.body).toContain('proxied');
  expect(preview.headers['content-security-policy']).toContain('sandbox');
  expect((await call('GET', `/app/${app.sid}/`)).statusCode).toBe(200);
  const studio = await call('POST', '/api/v1/studio/sessions', { appSid: app.sid });
  expect(studio.statusCode).toBe(201);
  const listed = (await call('GET', `/api/v1/studio/sessions?appSid=${app.sid}`)).json().data;
  expect(listed.map((s: { id: string }) => s.id)).toEqual([studio.json().data.id]);

  await call('PUT', '/api/v1/features/stage', { enabled: false });
  for (const url of [`/api/v1/studio/sessions?appSid=${app.sid}`, `/api/v1/stage/apps`]) {
    const res = await call('GET', url);
    expect([url, res.statusCode, res.json().error.code]).toEqual([url, 404, 'NOT_FOUND']);
  }
  // Pages of a disabled service fall through to the dashboard, as any unknown page does.
  expect((await call('GET', `/preview/${id}/__render/bundle.js`)).body).toContain(
    '<title>Platform</title>',
  );
  await call('PUT', '/api/v1/features/stage', { enabled: true });
  expect((await call('GET', `/preview/${id}/__render/bundle.js`)).statusCode).toBe(200);
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

  it("decides by the sandbox's declarations: its page needs credentials, its files are served by address", async () => {
    const as = (method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
      secured.app.inject({
        method,
        url,
        ...(payload ? { payload } : {}),
        headers: key ? { 'x-api-key': key } : {},
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
    expect((await as('GET', `/preview/${id}/`, undefined, KEY)).statusCode).toBe(200);
    // As in-process: a page that needs credentials sends the browser to sign in.
    const page = await as('GET', `/preview/${id}/`);
    expect([page.statusCode, page.headers.location]).toEqual([
      302,
      `/api/v1/passport/login?returnTo=${encodeURIComponent(`/preview/${id}/`)}`,
    ]);
    const bundle = await as('GET', `/preview/${id}/__render/bundle.js`);
    expect([bundle.statusCode, bundle.body]).toEqual([200, expect.stringContaining('x()')]);
    expect((await as('GET', `/api/v1/stage/sessions/${id}/status`)).statusCode).toBe(401);
    expect((await as('GET', `/api/v1/studio/sessions`)).statusCode).toBe(401);
  });
});
