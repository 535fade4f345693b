import { useService } from '@platform/testing';
import { expectForbidden, stageWithAuth, type Who } from './access-helpers';

// Published apps are shared to read (issue 31), their publisher's and team's to change; the
// session an app serves stays private.
const h = useService(stageWithAuth, { scope: 'all' });

const APP_OWNED = /it needs ownership \(it belongs to owner@example\.com and team payments\)$/;
const SEES_SESSION: Who[] = ['owner', 'teamMate', 'admin', 'ownerRead', 'teamKey'];

describe('listing and reading apps', () => {
  it('lets every signed-in caller read apps, with createdBy and team', async () => {
    const app = await h.app();
    for (const who of [...SEES_SESSION, 'stranger', 'viewer'] as const) {
      const res = await h.as(who).get(`/apps/${app.sid}`);
      expect([who, res.status]).toEqual([who, 200]);
      expect(res.body.data).toMatchObject({ sid: app.sid, createdBy: 'owner@example.com', team: 'payments' }); // prettier-ignore
      expect((await h.as(who).get(`/apps?name=${app.name}`)).body.data).toHaveLength(1);
    }
    expect((await h.as('anonymous').get('/apps')).status).toBe(401);
    expectForbidden(await h.as('ownerCatalog').get('/apps'), /needs the scope stage:read$/);
  });

  it("attack: GET /apps no longer shows every app's sessionId", async () => {
    const app = await h.app();
    const mine = await h.as('stranger').post('/apps', {
      sessionId: await h.session(undefined, 'stranger', {}),
      name: 'strangers-own',
    });
    const listed = async (who: Who) =>
      Object.fromEntries(
        ((await h.as(who).get('/apps')).body.data as Array<{ sid: string; sessionId: string }>).map(
          (a) => [a.sid, a.sessionId],
        ),
      );
    for (const who of SEES_SESSION) {
      expect((await listed(who))[app.sid]).toBe(app.sessionId);
      expect((await h.as(who).get(`/apps/${app.sid}`)).body.data.sessionId).toBe(app.sessionId);
    }
    for (const who of ['stranger', 'viewer'] as const) {
      expect((await listed(who))[app.sid]).toBeNull();
      expect((await h.as(who).get(`/apps/${app.sid}`)).body.data.sessionId).toBeNull();
      expect(JSON.stringify((await h.as(who).get('/apps')).body)).not.toContain(app.sessionId);
    }
    // A caller sees the sessions of their own apps.
    expect((await listed('stranger'))[mine.body.data.sid]).toBe(mine.body.data.sessionId);
  });
});

describe('publishing', () => {
  it("attack: POST /apps/:sid/publish with one's own session no longer replaces another person's app", async () => {
    const app = await h.app();
    const own = await h.session({ '/app/main.ts': 'evil()' }, 'stranger', {});
    const res = await h.as('stranger').post(`/apps/${app.sid}/publish`, { sessionId: own });
    expectForbidden(res, new RegExp(`^stranger@example\\.com may not update stage\\.app: ${APP_OWNED.source}`)); // prettier-ignore
    for (const who of ['viewer', 'ownerRead'] as const)
      expect((await h.as(who).post(`/apps/${app.sid}/publish`, { sessionId: own })).status).toBe(403); // prettier-ignore
    const after = await h.adminReads(`/apps/${app.sid}`);
    expect(after).toMatchObject({ sessionId: app.sessionId, publishedAt: app.publishedAt });
  });

  it("needs the app's ownership and the session's: its owners publish sessions they own", async () => {
    const app = await h.app();
    const strangers = await h.session(undefined, 'stranger', {});
    const onto = await h.as('owner').post(`/apps/${app.sid}/publish`, { sessionId: strangers });
    expectForbidden(onto, new RegExp(`^owner@example\\.com may not publish session ${strangers}: it needs ownership of session`)); // prettier-ignore
    expect((await h.adminReads(`/apps/${app.sid}`)).sessionId).toBe(app.sessionId);
    // A team mate publishes a session of theirs.
    const mates = await h.session(undefined, 'teamMate', {});
    const ok = await h.as('teamMate').post(`/apps/${app.sid}/publish`, { sessionId: mates });
    expect([ok.status, ok.body.data.sessionId]).toEqual([200, mates]);
  });

  it('creates an app only from a session the caller owns, recording the publisher', async () => {
    const owners = await h.session();
    const res = await h.as('stranger').post('/apps', { sessionId: owners, name: 'stolen' });
    expectForbidden(res, new RegExp(`^stranger@example\\.com may not create stage\\.app: ${APP_OWNED.source}`)); // prettier-ignore
    expect(await h.adminReads('/apps?name=stolen')).toEqual([]);
    expectForbidden(await h.as('viewer').post('/apps', { sessionId: owners, name: 'v' }), /needs the role member/); // prettier-ignore
    const made = await h.as('teamMate').post('/apps', { sessionId: owners, name: 'by-mate' });
    expect(made.body.data).toMatchObject({ createdBy: 'mate@example.com', team: null, sessionId: owners }); // prettier-ignore
  });
});

describe('changing and unpublishing an app', () => {
  it('refuses others and changes nothing; its owners, team and admins may', async () => {
    const app = await h.app();
    for (const who of ['stranger', 'viewer', 'ownerRead', 'anonymous'] as const) {
      const patch = await h.as(who).patch(`/apps/${app.sid}`, { title: 'hijacked' });
      const del = await h.as(who).del(`/apps/${app.sid}`);
      expect([who, patch.status, del.status]).toEqual([who, who === 'anonymous' ? 401 : 403, who === 'anonymous' ? 401 : 403]); // prettier-ignore
    }
    expectForbidden(await h.as('stranger').patch(`/apps/${app.sid}`, { title: 'x' }), APP_OWNED);
    expect(await h.adminReads(`/apps/${app.sid}`)).toEqual(app);

    expect((await h.as('teamMate').patch(`/apps/${app.sid}`, { title: 'by mate' })).body.data.title).toBe('by mate'); // prettier-ignore
    expectForbidden(await h.as('owner').patch(`/apps/${app.sid}`, { team: 'other' }), /may not name team other/); // prettier-ignore
    expect((await h.adminReads(`/apps/${app.sid}`)).team).toBe('payments');
    expect((await h.as('admin').patch(`/apps/${app.sid}`, { team: 'other' })).body.data.team).toBe('other'); // prettier-ignore
    // No longer the team's: the mate may not, the publisher still may.
    expect((await h.as('teamMate').del(`/apps/${app.sid}`)).status).toBe(403);
    expect((await h.as('owner').del(`/apps/${app.sid}`)).status).toBe(200);
    expect((await h.as('admin').get(`/apps/${app.sid}`)).status).toBe(404);
  });
});

describe('studio sessions', () => {
  it('copy an app only for those who may read the session it serves', async () => {
    const app = await h.app();
    const studio = (who: Who, body: object = {}) =>
      h.as(who, '/api/v1/studio').post('/sessions', { appSid: app.sid, ...body });
    const listed = async (who: Who) =>
      ((await h.as(who, '/api/v1/studio').get(`/sessions?appSid=${app.sid}`)).body.data as Array<{ id: string }>).map((s) => s.id); // prettier-ignore
    expectForbidden(await studio('stranger'), new RegExp(`^stranger@example\\.com may not create stage\\.session: ${APP_OWNED.source}`)); // prettier-ignore
    expectForbidden(await studio('viewer'), /needs the role member/);
    expect(await listed('admin')).toEqual([]);

    const mates = await studio('teamMate', { team: 'payments' });
    expect(mates.status).toBe(201);
    expect(mates.body.data).toMatchObject({ createdBy: 'mate@example.com', team: 'payments', fileCount: 1 }); // prettier-ignore
    const admins = (await studio('admin')).body.data;
    expect(await listed('owner')).toEqual([mates.body.data.id]);
    expect(await listed('teamMate')).toEqual([mates.body.data.id]);
    expect(await listed('stranger')).toEqual([]);
    expect(await listed('admin')).toEqual([admins.id, mates.body.data.id]);
  });
});

describe('runs, spreadsheets and pages', () => {
  it("keeps an app's runs and spreadsheets to its owners; its pages are everyone's", async () => {
    const app = await h.app({ '/app/main.ts': 'document.title = "hi";' });
    expect((await h.as('owner').post(`/sessions/${app.sessionId}/render`, { entry: '/app/main.ts' })).status).toBe(200); // prettier-ignore
    for (const url of [`/apps/${app.sid}/runs`, `/apps/${app.sid}/spreadsheets/nope`]) {
      expectForbidden(await h.as('stranger').get(url), APP_OWNED);
      expectForbidden(await h.as('viewer').get(url), APP_OWNED);
      expect((await h.as('teamMate').get(url)).status).not.toBe(403);
    }
    // Its pages are on its own origin; signing in there is any signed-in person's.
    for (const who of ['viewer', 'stranger', 'owner'] as const)
      expect([who, (await h.raw(who, 'GET', `/app/${app.sid}/__signin`)).status]).toEqual([who, 302]); // prettier-ignore
    expect((await h.raw('anonymous', 'GET', `/app/${app.sid}/__signin`)).status).toBe(401);
  });

  it("serves a session's preview page to its owners only", async () => {
    const id = await h.session({ '/app/main.ts': 'document.title = "hi";' });
    expect((await h.as('owner').post(`/sessions/${id}/render`, { entry: '/app/main.ts' })).status).toBe(200); // prettier-ignore
    // Signing in to the preview's own origin.
    for (const who of ['owner', 'teamMate', 'admin'] as const)
      expect([who, (await h.raw(who, 'GET', `/preview/${id}/__signin`)).status]).toEqual([who, 302]); // prettier-ignore
    for (const who of ['stranger', 'viewer'] as const) {
      const res = await h.raw(who, 'GET', `/preview/${id}/__signin`);
      expect([res.status, res.json().error.message]).toEqual([403, expect.stringMatching(/may not read stage\.session: it needs ownership/)]); // prettier-ignore
    }
    expect((await h.raw('anonymous', 'GET', `/preview/${id}/__signin`)).status).toBe(401);
  });
});
