import { useService } from '@platform/testing';
import { expectForbidden, stageWithAuth, type Who } from './access-helpers';

// Sessions are private (issue 31): a session and everything under it is its owner's, its
// collaborators', its team's and admins'.
const h = useService(stageWithAuth, { scope: 'all' });

const OWNED = /it needs ownership \(it belongs to owner@example\.com and team payments\)$/;
const READERS: Who[] = ['owner', 'teamMate', 'admin', 'ownerRead', 'ownerWrite', 'teamKey'];
const WRITERS: Who[] = ['owner', 'teamMate', 'admin', 'ownerWrite', 'teamKey'];

const reads = (id: string) => [
  `/sessions/${id}/status`,
  `/sessions/${id}/files`,
  `/sessions/${id}/files?content=true`,
  `/sessions/${id}/files/app/main.ts`,
  `/sessions/${id}/history?path=/app/main.ts`,
  `/sessions/${id}/render`,
  `/sessions/${id}/snapshots`,
  `/sessions/${id}/google-scopes`,
];

describe('reading a session', () => {
  it('lets its owner, team, admins and their keys read it; others get 403 or 401', async () => {
    const id = await h.session();
    for (const url of reads(id)) {
      for (const who of READERS) expect([who, url, (await h.as(who).get(url)).status]).toEqual([who, url, 200]); // prettier-ignore
      for (const who of ['stranger', 'viewer'] as const) {
        const res = await h.as(who).get(url);
        expectForbidden(res, new RegExp(`^${who}@example\\.com may not read stage\\.session: ${OWNED.source}`)); // prettier-ignore
      }
      expectForbidden(await h.as('ownerCatalog').get(url), /needs the scope stage:read$/);
      expect((await h.as('anonymous').get(url)).status).toBe(401);
    }
    // No app: those who may read it learn that; the others learn nothing.
    expect((await h.as('owner').get(`/sessions/${id}/app`)).status).toBe(404);
    expect((await h.as('stranger').get(`/sessions/${id}/app`)).status).toBe(403);
  });

  it("attack: GET /sessions/:id/files?content=true no longer reads another person's code", async () => {
    const id = await h.session({ '/app/main.ts': 'const apiKey = "s3cr3t";' });
    const res = await h.as('stranger').get(`/sessions/${id}/files?content=true`);
    expectForbidden(res, /^stranger@example\.com may not read stage\.session: it needs ownership/);
    expect(JSON.stringify(res.body)).not.toContain('s3cr3t');
    // Nor through the stage: functions, which call the same route as the caller.
    const viaFunction = await h.as('stranger').post('/functions/getAllFiles', { args: { sessionId: id } }); // prettier-ignore
    expect(viaFunction.status).toBe(403);
    expect(JSON.stringify(viaFunction.body)).not.toContain('s3cr3t');
    expect(
      (await h.as('owner').post('/functions/getAllFiles', { args: { sessionId: id } })).body.data,
    ).toEqual([
      // prettier-ignore
      { path: '/app/main.ts', version: 1, size: 24, content: 'const apiKey = "s3cr3t";' },
    ]);
  });
});

describe('changing a session', () => {
  const writes = (id: string, snapshot: string) =>
    [
      ['post', `/sessions/${id}/push`, { files: { '/app/x.ts': 'x' } }],
      ['post', `/sessions/${id}/render`, { entry: '/app/main.ts' }],
      ['del', `/sessions/${id}/files/app/main.ts`, undefined],
      ['post', `/sessions/${id}/snapshots`, { label: 'mine' }],
      ['post', `/sessions/${id}/snapshots/${snapshot}/restore`, {}],
      ['put', `/sessions/${id}/google-scopes`, { scopes: ['email'] }],
      ['put', `/sessions/${id}/collaborators`, { emails: ['x@example.com'] }],
    ] as const;
  const call = (who: Who, [method, url, body]: readonly [string, string, unknown]) =>
    method === 'del'
      ? h.as(who).del(url)
      : (h.as(who) as unknown as Record<string, (u: string, b: unknown) => Promise<{ status: number; body: unknown }>>)[method](url, body); // prettier-ignore

  it('refuses strangers, viewers, read-only keys and anonymous callers, and changes nothing', async () => {
    const id = await h.session();
    const snapshot = (await h.as('owner').post(`/sessions/${id}/snapshots`, {})).body.data.id;
    const before = await h.adminReads(`/sessions/${id}/status`);
    for (const write of writes(id, snapshot)) {
      expectForbidden(await call('stranger', write), /^stranger@example\.com may not (update|manage) stage\.session: it needs ownership/); // prettier-ignore
      expectForbidden(await call('viewer', write), /it needs the role member \(or admin\)$/);
      expectForbidden(await call('ownerRead', write), /it needs the scope stage:write$/);
      expect((await call('anonymous', write)).status).toBe(401);
    }
    expect(await h.adminReads(`/sessions/${id}/status`)).toEqual({
      ...before,
      session: { ...before.session, lastAccessedAt: expect.any(Number) },
    });
    expect((await h.adminReads(`/sessions/${id}/snapshots`)).length).toBe(1);
    expect(await h.adminReads(`/sessions/${id}/google-scopes`)).toEqual({ scopes: [] });
  });

  it('lets the owner, the team, admins and write keys change it', async () => {
    for (const who of WRITERS) {
      const id = await h.session();
      const snapshot = (await h.as('owner').post(`/sessions/${id}/snapshots`, {})).body.data.id;
      for (const write of writes(id, snapshot))
        expect([who, write[1], (await call(who, write)).status]).toEqual([who, write[1], write[1].endsWith('/snapshots') ? 201 : 200]); // prettier-ignore
    }
  });
});

describe('creating a session', () => {
  it('is for members: it records the caller and a team the caller is in', async () => {
    const created = await h.as('stranger').post('/sessions', {});
    expect(created.status).toBe(201);
    const status = await h.as('stranger').get(`/sessions/${created.body.data.id}/status`);
    expect(status.body.data.session).toMatchObject({
      createdBy: 'stranger@example.com',
      team: null,
      collaborators: [],
    });
    expectForbidden(await h.as('viewer').post('/sessions', {}), /^viewer@example\.com may not create stage\.session: it needs the role member/); // prettier-ignore
    expectForbidden(await h.as('ownerRead').post('/sessions', {}), /needs the scope stage:write$/);
    expect((await h.as('anonymous').post('/sessions', {})).status).toBe(401);
    expectForbidden(await h.as('stranger').post('/sessions', { team: 'payments' }), /^stranger@example\.com may not name team payments/); // prettier-ignore
    const team = await h.as('teamKey').post('/sessions', {});
    const teamStatus = await h.as('teamMate').get(`/sessions/${team.body.data.id}/status`);
    expect(teamStatus.body.data.session).toMatchObject({ createdBy: 'key:payments-ci', team: 'payments' }); // prettier-ignore
  });
});

describe('collaborators', () => {
  it('are named by the owner and may then read and change the session as the owner does', async () => {
    const id = await h.session();
    const url = `/sessions/${id}/collaborators`;
    expectForbidden(await h.as('stranger').put(url, { emails: ['stranger@example.com'] }), OWNED);
    expect((await h.adminReads(`/sessions/${id}/status`)).session.collaborators).toEqual([]);

    const set = await h.as('owner').put(url, { emails: ['Stranger@Example.com', 'viewer@example.com', 'stranger@example.com'] }); // prettier-ignore
    expect(set.body.data).toEqual({
      createdBy: 'owner@example.com',
      team: 'payments',
      collaborators: ['stranger@example.com', 'viewer@example.com'],
    });
    expect((await h.as('stranger').get(`/sessions/${id}/files?content=true`)).status).toBe(200);
    expect((await h.as('stranger').post(`/sessions/${id}/push`, { files: { '/b.ts': 'b' } })).status).toBe(200); // prettier-ignore
    // A viewer collaborator reads; viewers never write.
    expect((await h.as('viewer').get(`/sessions/${id}/status`)).status).toBe(200);
    expect((await h.as('viewer').post(`/sessions/${id}/push`, { files: { '/c.ts': 'c' } })).status).toBe(403); // prettier-ignore
    expect((await h.as('owner').put(url, { emails: ['not an email'] })).status).toBe(400);

    expect((await h.as('owner').put(url, { emails: [] })).body.data.collaborators).toEqual([]);
    expect((await h.as('stranger').get(`/sessions/${id}/status`)).status).toBe(403);
  });
});

describe('sessions made before ownership', () => {
  it('belong to no one: admins only', async () => {
    const id = await h.session();
    await h.svc.db
      .schema<{ sessions: { id: string; created_by: string | null; team: string | null } }>('stage')
      .updateTable('sessions')
      .set({ created_by: null, team: null })
      .where('id', '=', id)
      .execute();
    for (const who of ['owner', 'teamMate', 'stranger'] as const)
      expectForbidden(await h.as(who).get(`/sessions/${id}/status`), /it needs the role admin \(it belongs to no one\)$/); // prettier-ignore
    expect((await h.as('admin').get(`/sessions/${id}/files?content=true`)).status).toBe(200);
  });
});
