import { useService } from '@platform/testing';
import { stageUnderTest } from './helpers';

const s = useService(stageUnderTest, { scope: 'all' });

const EPOCH = expect.any(Number);
let counter = 0;
/** A published app of a new session holding `files`. */
async function publish(
  files: Record<string, string> = { '/app/main.ts': 'document.body.textContent = "v1";' },
  extra: object = {},
) {
  const sessionId = await s.session();
  await s.push(sessionId, files);
  const name = `app-${++counter}`;
  const res = await s.api.post('/apps', { sessionId, name, ...extra });
  expect(res.status).toBe(201);
  return { sessionId, app: res.body.data };
}

describe('published apps', () => {
  it('publishes a session under a new sid, found by sid, by name and by session', async () => {
    const { sessionId, app } = await publish(undefined, {
      title: 'Orders',
      config: { sheet: 'abc' },
    });
    expect(app).toEqual({
      sid: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: `app-${counter}`,
      sessionId,
      title: 'Orders',
      description: null,
      config: { sheet: 'abc' },
      repository: null,
      url: `/app/${app.sid}/`,
      // Its own origin: the sid in hex under STAGE_APPS_DOMAIN (inject's host has no port).
      origin: `http://${Buffer.from(app.sid).toString('hex')}.apps.localhost`,
      visibility: 'private',
      connectOrigins: [],
      scopes: ['inference:invoke', 'communication:write', 'billing:write', 'pulse:ingest', 'ledger:write'], // prettier-ignore
      createdAt: EPOCH,
      updatedAt: EPOCH,
      publishedAt: EPOCH,
      createdBy: null,
      team: null,
    });
    expect((await s.api.get(`/apps/${app.sid}`)).body.data).toEqual(app);
    expect((await s.api.get(`/apps/${app.name.toUpperCase()}`)).body.data).toEqual(app);
    expect((await s.api.get(`/apps?sessionId=${sessionId}`)).body.data).toEqual([app]);
    expect((await s.api.get(`/sessions/${sessionId}/app`)).body.data).toEqual(app);
    expect((await s.api.get('/apps/nope')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'App not found: nope',
    });
  });

  it('refuses a taken name, a session serving another app, an unknown session and bad fields', async () => {
    const { sessionId, app } = await publish();
    const other = await s.session();
    const taken = await s.api.post('/apps', { sessionId: other, name: app.name.toUpperCase() });
    expect([taken.status, taken.body.error.message]).toEqual([
      409,
      `An app named ${app.name.toUpperCase()} exists already`,
    ]);
    const twice = await s.api.post('/apps', { sessionId, name: 'second' });
    expect([twice.status, twice.body.error.message]).toEqual([
      409,
      `Session ${sessionId} serves the app ${app.name} (${app.sid}) already`,
    ]);
    expect(
      (await s.api.post('/apps', { sessionId: 'nope1234', name: 'x' })).body.error.message,
    ).toBe('Session not found: nope1234');
    expect((await s.api.post('/apps', { sessionId: other })).status).toBe(400);
    expect((await s.api.post('/apps', { sessionId: other, name: ' pad' })).body.error.message).toBe(
      'name has an invalid format',
    );
    expect((await s.api.get(`/apps?sessionId=${other}`)).body.data).toEqual([]);
    expect((await s.api.get(`/sessions/${other}/app`)).body.error.message).toBe(
      `App of session not found: ${other}`,
    );
  });

  it('updates metadata, config and the repository link (linkedAt set by the server, defaults filled in)', async () => {
    const { app } = await publish();
    const before = Date.now();
    const res = await s.api.patch(`/apps/${app.sid}`, {
      title: 'Shop',
      description: 'Sells things',
      config: { currency: 'EUR' },
      repository: {
        provider: 'github',
        owner: 'acme',
        name: 'shop',
        url: 'https://github.com/acme/shop',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Shop',
      description: 'Sells things',
      config: { currency: 'EUR' },
    });
    expect(res.body.data.repository).toEqual({
      provider: 'github',
      owner: 'acme',
      name: 'shop',
      fullName: 'acme/shop',
      url: 'https://github.com/acme/shop',
      visibility: 'private',
      defaultBranch: 'main',
      remoteName: 'origin',
      linkedAt: expect.any(Number),
    });
    expect(res.body.data.repository.linkedAt).toBeGreaterThanOrEqual(before);
    expect((await s.api.get(`/apps/${app.sid}`)).body.data).toEqual(res.body.data);
    const cleared = await s.api.patch(`/apps/${app.sid}`, { title: null, repository: null });
    expect(cleared.body.data).toMatchObject({
      title: null,
      description: 'Sells things',
      repository: null,
    });
    for (const [body, message] of [
      [
        { repository: { provider: 'github', owner: 'acme', name: 'shop' } },
        'repository.url is required',
      ],
      [
        { repository: { provider: 'github', owner: 'acme', name: 'shop', url: 'ftp://x' } },
        'repository.url has an invalid format',
      ],
      [
        {
          repository: { provider: 'github', owner: 'a', name: 'b', url: 'https://x', linkedAt: 5 },
        },
        'repository has an unknown field: linkedAt',
      ],
      [{ sid: 'x' }, 'body has an unknown field: sid'],
    ] as const) {
      const bad = await s.api.patch(`/apps/${app.sid}`, body);
      expect([bad.status, bad.body.error.message]).toEqual([400, message]);
    }
    expect((await s.api.patch('/apps/nope', { title: 'x' })).status).toBe(404);
  });

  it('serves the frontend of the session it publishes at /app/<sid>/, and a newer session once published', async () => {
    const { sessionId, app } = await publish();
    expect((await s.page(`/app/${app.sid}/`)).status).toBe(404); // nothing rendered yet
    await s.api.post(`/sessions/${sessionId}/render`, { entry: '/app/main.ts' });
    const page = await s.page(`/app/${app.sid}/`);
    expect([page.status, page.body]).toEqual([
      200,
      expect.stringContaining(`<title>${app.name}</title>`),
    ]);
    expect((await s.page(`/app/${app.sid}/__render/bundle.js`)).body).toContain('v1');

    const next = await s.session();
    await s.push(next, { '/app/main.ts': 'document.body.textContent = "v2";' });
    await s.api.post(`/sessions/${next}/render`, { entry: '/app/main.ts' });
    const published = await s.api.post(`/apps/${app.sid}/publish`, { sessionId: next });
    expect(published.body.data).toMatchObject({ sid: app.sid, sessionId: next });
    expect(published.body.data.publishedAt).toBeGreaterThanOrEqual(app.publishedAt);
    expect((await s.page(`/app/${app.sid}/__render/bundle.js`)).body).toContain('v2');
    expect((await s.page('/app/nope1234/')).status).toBe(404);
    const { sessionId: busy } = await publish();
    expect((await s.api.post(`/apps/${app.sid}/publish`, { sessionId: busy })).status).toBe(409);
  });

  it('lists newest first with a name filter and paging, and unpublishes', async () => {
    const a = (await publish()).app;
    const b = (await publish()).app;
    const listed = (await s.api.get('/apps?limit=2')).body.data.map((x: { sid: string }) => x.sid);
    expect(listed).toEqual([b.sid, a.sid]);
    expect(
      (await s.api.get(`/apps?name=${a.name.toUpperCase()}`)).body.data.map(
        (x: { sid: string }) => x.sid,
      ),
    ).toEqual([a.sid]);
    expect((await s.api.get('/apps?limit=1&offset=1')).body.data[0].sid).toBe(a.sid);
    expect((await s.api.del(`/apps/${a.sid}`)).body.data.sid).toBe(a.sid);
    expect((await s.api.get(`/apps/${a.sid}`)).status).toBe(404);
    expect((await s.api.get('/apps?bogus=1')).body.error.message).toBe(
      'querystring has an unknown field: bogus',
    );
  });
});

describe('studio sessions', () => {
  it("opens sessions bound to an app, seeded with its files, and lists only that app's", async () => {
    const { sessionId, app } = await publish({ '/app/main.ts': 'main', '/app/util.ts': 'util' });
    await s.push(sessionId, { '/app/main.ts': 'main v2' });
    const opened = await s.studio.post('/sessions', { appSid: app.sid });
    expect(opened.status).toBe(201);
    const studio = opened.body.data;
    expect(studio).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      appSid: app.sid,
      createdAt: EPOCH,
      lastAccessedAt: EPOCH,
      fileCount: 2,
      createdBy: null,
      team: null,
    });
    expect((await s.api.get(`/sessions/${studio.id}/files?content=true`)).body.data).toEqual([
      { path: '/app/main.ts', version: 1, size: 7, content: 'main v2' },
      { path: '/app/util.ts', version: 1, size: 4, content: 'util' },
    ]);
    expect((await s.api.get(`/sessions/${studio.id}/status`)).body.data.session.appSid).toBe(
      app.sid,
    );
    // Edits stay in the studio session until it is published.
    await s.push(studio.id, { '/app/main.ts': 'main v3' });
    expect((await s.page(`/api/v1/stage/sessions/${sessionId}/files/app/main.ts`)).body).toBe(
      'main v2',
    );

    const other = (await publish()).app;
    await s.studio.post('/sessions', { appSid: other.name });
    const second = (await s.studio.post('/sessions', { appSid: app.sid })).body.data;
    expect(
      (await s.studio.get(`/sessions?appSid=${app.sid}`)).body.data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([second.id, studio.id]);
    expect((await s.api.get(`/sessions/${studio.id}/app`)).body.data.sid).toBe(app.sid);
    expect(
      (await s.api.get(`/apps?sessionId=${studio.id}`)).body.data.map(
        (x: { sid: string }) => x.sid,
      ),
    ).toEqual([app.sid]);
    expect((await s.studio.get('/sessions?appSid=nope')).body.data).toEqual([]);
    expect((await s.studio.post('/sessions', { appSid: 'nope' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'App not found: nope',
    });

    const published = await s.api.post(`/apps/${app.sid}/publish`, { sessionId: studio.id });
    expect(published.body.data.sessionId).toBe(studio.id);
  });
});
