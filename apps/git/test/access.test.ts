import { describeIdentity } from '@platform/core';
import { createHmac } from 'node:crypto';
import { CALLERS, keyCaller, type Json } from '@platform/testing';
import { accessWorld, KEYS, WEBHOOK_SECRET, type AccessWorld } from './access-setup';

// Who may read and configure git (issue 31): providers are platform configuration (admins),
// repositories are connected by members and read by anyone signed in.

let w: AccessWorld;
beforeAll(async () => {
  w = await accessWorld();
});
afterAll(() => w.close());

const { admin, owner, teamMate, stranger, viewer } = CALLERS;

describe('providers: platform configuration', () => {
  it('are read by anyone signed in, with who registered them', async () => {
    for (const caller of [viewer, stranger, KEYS.read]) {
      const res = await w.as(caller).get('/providers/local');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ createdBy: describeIdentity(admin), team: null });
    }
    const anonymous = await w.as(undefined).get('/providers');
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const otherScope = await w.as(KEYS.otherService).get('/providers');
    expect(otherScope.status).toBe(403);
    expect(otherScope.body.error.message).toBe(
      'key:catalog may not read git.provider: it needs the scope git:read',
    );
  });

  it('are created and deleted by admins only', async () => {
    for (const caller of [owner, teamMate, stranger, viewer]) {
      const res = await w.as(caller).post('/providers', { name: 'mine', type: 'local' });
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        code: 'FORBIDDEN',
        message: `${describeIdentity(caller)} may not create git.provider: it needs the role admin`,
      });
      const del = await w.as(caller).del('/providers/local');
      expect(del.body.error.message).toBe(
        `${describeIdentity(caller)} may not delete git.provider: it needs the role admin`,
      );
    }
    const key = await w.as(KEYS.ownerWrite).post('/providers', { name: 'mine', type: 'local' });
    expect(key.body.error.message).toMatch(/needs the scope admin$/);
    expect((await w.as(admin).get('/providers')).body.data.map((p: Json) => p.name)).toEqual([
      'local',
    ]);
    const made = await w.as(admin).post('/providers', { name: 'mine', type: 'local', team: 'ops' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ createdBy: describeIdentity(admin), team: 'ops' });
    const adminKey = keyCaller(['admin'], { role: 'admin', owner: describeIdentity(admin) });
    expect((await w.as(adminKey).del('/providers/mine')).status).toBe(200);
  });
});

describe('repositories: members connect them', () => {
  it('records who connected one and its team', async () => {
    const repo = (await w.as(viewer).get(`/repos/${w.id}`)).body.data;
    expect(repo).toMatchObject({
      fullName: 'acme/app',
      createdBy: describeIdentity(owner),
      team: 'payments',
      connectedBy: describeIdentity(owner),
    });
  });

  it('refuses viewers, read keys and teams the caller is not in, and connects nothing', async () => {
    const body = { providerId: 'local', owner: 'acme', repoName: 'side' };
    const byViewer = await w.as(viewer).post('/repos', body);
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.message).toBe(
      'viewer@example.com may not create git.repository: it needs the role member (or admin)',
    );
    const byReader = await w.as(KEYS.read).post('/repos', body);
    expect(byReader.body.error.message).toMatch(/needs the scope git:write$/);
    const team = await w.as(stranger).post('/repos', { ...body, team: 'payments' });
    expect(team.status).toBe(403);
    expect(team.body.error.message).toMatch(/^stranger@example.com may not name team payments/);
    expect((await w.as(admin).get('/repos/acme%2Fside')).status).toBe(404);
  });

  it("lets a member connect one, and a personal key connect one as its owner's", async () => {
    const mine = await w.as(stranger).post('/repos', {
      providerId: 'local',
      owner: 'stranger',
      repoName: 'side',
    });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ createdBy: describeIdentity(stranger), team: null });
    const byKey = await w.as(KEYS.ownerWrite).post('/repos', {
      providerId: 'local',
      owner: 'acme',
      repoName: 'keyed',
    });
    expect(byKey.status).toBe(201);
    expect(byKey.body.data).toMatchObject({ createdBy: describeIdentity(owner), team: null });
    const byTeamKey = await w.as(KEYS.team).post('/repos', {
      providerId: 'local',
      owner: 'acme',
      repoName: 'bot',
    });
    expect(byTeamKey.body.data).toMatchObject({ createdBy: 'key:payments-bot', team: 'payments' });
  });
});

describe('reading: anyone signed in (the git host decides the rest)', () => {
  const reads = () => [
    '/repos',
    `/repos/${w.id}`,
    `/repos/${w.id}/branches`,
    `/repos/${w.id}/commits?branch=feature`,
    `/repos/${w.id}/files`,
    `/repos/${w.id}/files/README.md`,
    `/repos/${w.id}/compare/main...feature`,
    `/repos/${w.id}/pulls`,
    `/repos/${w.id}/pulls/1`,
    '/webhooks/events',
  ];

  it('answers viewers, members and read keys', async () => {
    for (const caller of [viewer, stranger, teamMate, KEYS.read, KEYS.team])
      for (const url of reads())
        expect([url, (await w.as(caller).get(url)).status]).toEqual([url, 200]);
    const commits = (await w.as(viewer).get(`/repos/${w.id}/commits`)).body.data;
    expect((await w.as(viewer).get(`/repos/${w.id}/commits/${commits[0].sha}`)).status).toBe(200);
  });

  it('refuses anonymous callers and keys of another service', async () => {
    for (const url of reads()) {
      expect([url, (await w.as(undefined).get(url)).status]).toEqual([url, 401]);
      const res = await w.as(KEYS.otherService).get(url);
      expect([url, res.status]).toEqual([url, 403]);
      expect(res.body.error.message).toMatch(/needs the scope git:read$/);
    }
  });

  it("refuses reading with another person's user (their delegated token)", async () => {
    const res = await w.as(viewer).get(`/repos/${w.id}/branches?user=${describeIdentity(owner)}`);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(
      /^viewer@example.com may not act as owner@example.com: /,
    );
    const own = await w.as(viewer).get(`/repos/${w.id}/branches?user=VIEWER@example.com`);
    expect(own.status).toBe(200);
  });
});

describe('webhooks received: public, the signature authenticates', () => {
  const deliver = async (signature: string | undefined, body: string) => {
    const res = await w.svc.app.inject({
      method: 'POST',
      url: '/api/v1/git/webhooks/receive',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': `d-${signature?.length ?? 0}-${body.length}`,
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      },
    });
    return { status: res.statusCode, body: res.json() as Json };
  };

  it('stores a signed delivery without credentials, and refuses a bad or missing signature', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', repository: { full_name: 'acme/app' } });
    const good = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    // The set-up's commits are push events of their own (issue 36): received ones are counted.
    const listed = async () => (await w.as(admin).get('/webhooks/events')).body.data as Json[];
    const before = (await listed()).length;
    expect((await deliver(undefined, body)).status).toBe(401);
    const forged = await deliver(`sha256=${'0'.repeat(64)}`, body);
    expect([forged.status, forged.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(await listed()).toHaveLength(before);
    expect((await deliver(good, body)).status).toBe(201);
    const events = (await w.as(viewer).get('/webhooks/events?repositoryId=acme%2Fapp')).body.data;
    expect(events).toHaveLength(before + 1);
    expect(events[0]).toMatchObject({
      repositoryId: w.id,
      deliveryId: expect.stringMatching(/^d-/),
    });
  });
});
