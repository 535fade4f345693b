import {
  authenticateRequests,
  authSettings,
  createApp,
  SESSION_COOKIE,
  type App,
} from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import { AUTH_ENV, testDatabase } from '@platform/testing';
import stage from '../src/index';
import { OWNER } from './access-helpers';

// The stage service mounted as the gateway mounts it (trusted: the host authenticates), with a
// session cookie: a cookie's write must be same-origin (issue 31), the stage: functions included,
// whose call to their route is the same request.
let app: App;
let database: PlatformDatabase;
beforeAll(async () => {
  database = await testDatabase();
  await migrateSchema(database, stage.name, stage.migrations);
  const auth = authSettings(AUTH_ENV);
  app = createApp();
  authenticateRequests(app, {
    settings: auth,
    resolve: async ({ sessionToken }) => (sessionToken === 'owners-cookie' ? OWNER : null),
  });
  await app.register(stage.plugin, {
    database,
    config: stage.config(AUTH_ENV),
    jobs: false,
    auth,
    trusted: true,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const post = (url: string, payload: object, site: string) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/stage${url}`,
    payload,
    headers: { cookie: `${SESSION_COOKIE}=owners-cookie`, 'sec-fetch-site': site },
  });

describe('a signed-in person with the session cookie', () => {
  it('writes through the stage: functions from the platform pages, never from another site', async () => {
    const created = await post('/sessions', {}, 'same-origin');
    expect(created.statusCode).toBe(201);
    const sessionId = created.json().data.id;
    const write = (site: string) =>
      post('/functions/writeFile', { args: { sessionId, path: '/a.ts', content: site } }, site);
    const crossSite = await write('cross-site');
    expect([crossSite.statusCode, crossSite.json().error.message]).toEqual([403, expect.stringMatching(/^Cross-site request refused/)]); // prettier-ignore
    const sameOrigin = await write('same-origin');
    expect(sameOrigin.statusCode).toBe(200);
    const files = await app.inject({
      method: 'GET',
      url: `/api/v1/stage/sessions/${sessionId}/files?content=true`,
      headers: { cookie: `${SESSION_COOKIE}=owners-cookie` },
    });
    expect(files.json().data).toEqual([{ path: '/a.ts', version: 1, size: 11, content: 'same-origin' }]); // prettier-ignore
  });
});
