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
    '<h1>Platform</h1>',
  );
  await call('PUT', '/api/v1/features/stage', { enabled: true });
  expect((await call('GET', `/preview/${id}/__render/bundle.js`)).statusCode).toBe(200);
});
