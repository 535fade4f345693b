import { describeIdentity, type Identity } from '@platform/core';
import { CALLERS, type Json } from '@platform/testing';
import type { GitDatabase } from '../src/database';
import { accessWorld, HOOK_URL, KEYS, type AccessWorld } from './access-setup';

// Changing a repository (issue 31): its connection's owners (creator, team, admins) sync,
// disconnect, delete branches, merge and manage webhooks; members commit, branch and open pull
// requests as collaborators, with their own token on GitHub (on a local repository, where the
// platform is the host, they need ownership too); nobody ever acts as another person.

let w: AccessWorld;
beforeAll(async () => {
  w = await accessWorld();
});
afterAll(() => w.close());

const { admin, owner, teamMate, stranger, viewer } = CALLERS;
const OWNED = 'it needs ownership (it belongs to owner@example.com and team payments)';
const commit = (path: string, extra: Record<string, unknown> = {}) => ({
  branch: 'main',
  message: `Add ${path}`,
  files: [{ path, content: 'x' }],
  ...extra,
});

describe("changes of a repository connection: its owners'", () => {
  // Each change, what an admin reads back to prove nothing happened, and who may do it.
  const changes = () => [
    {
      what: 'update git.repository',
      call: (c?: Identity) => w.as(c).post(`/repos/${w.id}/sync`, {}),
      state: async () => (await w.as(admin).get(`/repos/${w.id}`)).body.data.updated,
    },
    {
      what: 'delete git.branch',
      call: (c?: Identity) => w.as(c).del(`/repos/${w.id}/branches/feature`),
      state: () => w.branches(),
    },
    {
      what: 'update git.pull',
      call: (c?: Identity) => w.as(c).post(`/repos/${w.id}/pulls/1/merge`, {}),
      state: async () => [
        (await w.as(admin).get(`/repos/${w.id}/pulls/1`)).body.data.state,
        await w.head('main'),
      ],
    },
    {
      what: 'create git.webhook',
      call: (c?: Identity) =>
        w.as(c).post(`/repos/${w.id}/webhooks`, { url: 'https://example.com/h' }),
      state: () => w.webhooks(),
    },
    {
      what: 'delete git.webhook',
      call: (c?: Identity) => w.as(c).del(`/repos/${w.id}/webhooks`),
      state: () => w.webhooks(),
    },
    {
      what: 'delete git.repository',
      call: (c?: Identity) => w.as(c).del(`/repos/${w.id}`),
      state: async () => (await w.as(admin).get(`/repos/${w.id}`)).status,
    },
  ];
  const denied: Array<[Identity, string]> = [
    [stranger, OWNED],
    [KEYS.strangerWrite, OWNED],
    [viewer, 'it needs the role member (or admin)'],
    [KEYS.read, 'it needs the scope git:write'],
  ];

  it('refuses members who do not own it, viewers and read keys, and changes nothing', async () => {
    for (const change of changes()) {
      const before = await change.state();
      for (const [caller, missing] of denied) {
        const res = await change.call(caller);
        expect([change.what, res.status]).toEqual([change.what, 403]);
        expect(res.body.error).toEqual({
          code: 'FORBIDDEN',
          message: `${describeIdentity(caller)} may not ${change.what}: ${missing}`,
        });
      }
      expect((await change.call(undefined)).status).toBe(401);
      expect([change.what, await change.state()]).toEqual([change.what, before]);
    }
  });

  it('lets its creator, its team, a personal key of its creator and admins change it', async () => {
    expect((await w.as(owner).post(`/repos/${w.id}/sync`, {})).status).toBe(200);
    const hook = await w
      .as(teamMate)
      .post(`/repos/${w.id}/webhooks`, { url: 'https://example.com/h' });
    expect(hook.status).toBe(201);
    expect((await w.as(KEYS.team).del(`/repos/${w.id}/webhooks?url=${HOOK_URL}`)).status).toBe(200);
    expect(
      (await w.as(admin).del(`/repos/${w.id}/webhooks`)).body.data.map((h: Json) => h.url),
    ).toEqual(['https://example.com/h']);
    expect((await w.as(KEYS.ownerWrite).post(`/repos/${w.id}/pulls/1/merge`, {})).status).toBe(200);
    expect((await w.as(teamMate).del(`/repos/${w.id}/branches/feature`)).status).toBe(200);
    expect(await w.branches()).toEqual(['main']);
  });

  it('leaves a connection made before ownership existed to admins', async () => {
    const made = await w
      .as(owner)
      .post('/repos', { providerId: 'local', owner: 'acme', repoName: 'old' });
    const db = w.svc.db.schema<GitDatabase>('git');
    await db
      .updateTable('repositories')
      .set({ created_by: null, team: null })
      .where('id', '=', made.body.data.id)
      .execute();
    const res = await w.as(owner).post('/repos/acme%2Fold/sync', {});
    expect(res.body.error.message).toBe(
      'owner@example.com may not update git.repository: it needs the role admin (it belongs to no one)',
    );
    expect((await w.as(admin).post('/repos/acme%2Fold/sync', {})).status).toBe(200);
    expect((await w.as(owner).del('/repos/nope%2Fnope')).status).toBe(404);
  });
});

describe("collaborators' writes: commits, branches, pull requests", () => {
  it("are members' (viewers and read keys never), and on a local repository its owners'", async () => {
    const main = await w.head('main');
    const writes = [
      [
        'create git.commit',
        (c?: Identity) => w.as(c).post(`/repos/${w.id}/commits`, commit('x.txt')),
      ],
      [
        'create git.branch',
        (c?: Identity) => w.as(c).post(`/repos/${w.id}/branches`, { name: 'side' }),
      ],
      [
        'create git.pull',
        (c?: Identity) =>
          w.as(c).post(`/repos/${w.id}/pulls`, { title: 't', head: 'side', base: 'main' }),
      ],
    ] as const;
    for (const [what, call] of writes) {
      expect((await call(viewer)).body.error.message).toBe(
        `viewer@example.com may not ${what}: it needs the role member (or admin)`,
      );
      expect((await call(KEYS.read)).body.error.message).toMatch(/needs the scope git:write$/);
      const res = await call(stranger);
      expect([what, res.status]).toEqual([what, 403]);
      expect(res.body.error.message).toBe(`stranger@example.com may not ${what}: ${OWNED}`);
    }
    expect(await w.head('main')).toBe(main);
    expect(await w.branches()).toEqual(['main']);
    const byMate = await w.as(teamMate).post(`/repos/${w.id}/commits`, commit('mate.txt'));
    expect(byMate.status).toBe(201);
    expect(byMate.body.data.author).toMatchObject({
      email: describeIdentity(teamMate),
      name: 'mate',
    });
    expect((await w.as(teamMate).post(`/repos/${w.id}/branches`, { name: 'side' })).status).toBe(
      201,
    );
  });
});

describe("the attack of issue 31: committing in another person's name", () => {
  it('is refused, whoever names another user, and the branch does not move', async () => {
    const main = await w.head('main');
    for (const caller of [stranger, teamMate, admin, KEYS.ownerWrite, KEYS.team]) {
      const res = await w
        .as(caller)
        .post(`/repos/${w.id}/commits`, commit('forged.txt', { user: 'boss@example.com' }));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.message).toMatch(
        new RegExp(`^${describeIdentity(caller)} may not act as boss@example\\.com: `),
      );
    }
    const asOwner = await w
      .as(teamMate)
      .post(`/repos/${w.id}/commits`, commit('f.txt', { user: describeIdentity(owner) }));
    expect(asOwner.body.error.message).toMatch(
      /^mate@example.com may not act as owner@example.com: /,
    );
    expect(await w.head('main')).toBe(main);
  });

  it("commits in the caller's own name: a personal key's is its owner's", async () => {
    const own = await w
      .as(teamMate)
      .post(`/repos/${w.id}/commits`, commit('own.txt', { user: 'Mate@example.com' }));
    expect(own.status).toBe(201);
    const byKey = await w.as(KEYS.ownerWrite).post(`/repos/${w.id}/commits`, commit('key.txt'));
    expect(byKey.status).toBe(201);
    expect(byKey.body.data.author.email).toBe(describeIdentity(owner));
  });
});
