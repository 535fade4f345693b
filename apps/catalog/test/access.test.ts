import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import type { CatalogDatabase } from '../src/database';
import { catalog } from '../src/index';

// The catalog is shared knowledge: every signed-in caller reads it, members add to it, and a
// record's creator, its team and admins change or remove it (issue 31).
const svc = useService(() => serviceUnderTest(catalog, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, catalog.prefix, identity);
const admin = () => as(CALLERS.admin);
const READ_KEY = keyCaller(['catalog:read']);
const WRITE_KEY = keyCaller(['catalog:write']);

/** A record made by the owner, then given to team payments by an admin. */
async function owned(path: string, name: string, extra: object) {
  const made = await as(CALLERS.owner).post(`/${path}`, { name, ...extra });
  expect(made.status).toBe(201);
  expect(made.body.data).toMatchObject({ createdBy: 'owner@example.com', team: null });
  const teamed = await admin().put(`/${path}/${name}`, { team: 'payments' });
  expect(teamed.body.data).toMatchObject({ createdBy: 'owner@example.com', team: 'payments' });
  return teamed.body.data;
}

describe.each([
  ['services', 'catalog.service', {}],
  ['systems', 'catalog.system', {}],
  ['apis', 'catalog.api', { type: 'openapi' }],
] as const)('%s', (path, resource, extra) => {
  const one = (name: string) => `/${path}/${name}`;
  const before = async (name: string) => (await admin().get(one(name))).body.data;

  it('are read by every signed-in caller and read key, not anonymously', async () => {
    await owned(path, `${path}-read`, extra);
    for (const caller of [CALLERS.viewer, CALLERS.stranger, READ_KEY, keyCaller(['*:read'])]) {
      expect((await as(caller).get(`/${path}`)).status).toBe(200);
      expect((await as(caller).get(one(`${path}-read`))).status).toBe(200);
    }
    const anonymous = await as(undefined).get(`/${path}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    const other = await as(keyCaller(['pulse:ingest'])).get(one(`${path}-read`));
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(
      `key:key-pulse:ingest may not read ${resource}: it needs the scope catalog:read`,
    );
  });

  it('are created by members and write keys, who become their creators', async () => {
    const member = await as(CALLERS.stranger).post(`/${path}`, { name: `${path}-m`, ...extra });
    expect(member.status).toBe(201);
    expect(member.body.data).toMatchObject({ createdBy: 'stranger@example.com', team: null });
    const mate = await as(CALLERS.teamMate).post(`/${path}`, {
      name: `${path}-t`,
      team: 'payments',
      ...extra,
    });
    expect(mate.body.data).toMatchObject({ createdBy: 'mate@example.com', team: 'payments' });
    const key = await as(WRITE_KEY).post(`/${path}`, { name: `${path}-k`, ...extra });
    expect(key.body.data).toMatchObject({ createdBy: 'keyholder@example.com', team: null });
    const teamKey = keyCaller(['catalog:write'], { owner: null, team: 'payments', name: 'ci' });
    const service = await as(teamKey).post(`/${path}`, { name: `${path}-ci`, ...extra });
    expect(service.body.data).toMatchObject({ createdBy: 'key:ci', team: 'payments' });
  });

  it('are not created by viewers, read keys, anonymous callers, or in a team one is not in', async () => {
    const name = `${path}-refused`;
    const viewer = await as(CALLERS.viewer).post(`/${path}`, { name, ...extra });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error).toEqual({
      code: 'FORBIDDEN',
      message: `viewer@example.com may not create ${resource}: it needs the role member (or admin)`,
    });
    const key = await as(READ_KEY).post(`/${path}`, { name, ...extra });
    expect(key.body.error.message).toBe(
      `key:key-catalog:read may not create ${resource}: it needs the scope catalog:write`,
    );
    expect((await as(undefined).post(`/${path}`, { name, ...extra })).status).toBe(401);
    const team = await as(CALLERS.stranger).post(`/${path}`, { name, team: 'payments', ...extra });
    expect(team.status).toBe(403);
    expect(team.body.error.message).toMatch(/^stranger@example.com may not name team payments/);
    expect((await admin().get(one(name))).status).toBe(404);
  });

  it('are changed by their creator, their team and admins', async () => {
    const name = `${path}-mine`;
    await owned(path, name, extra);
    const byOwner = await as(CALLERS.owner).put(one(name), { description: 'owner' });
    expect(byOwner.status).toBe(200);
    const byMate = await as(CALLERS.teamMate).put(one(name), { description: 'mate' });
    expect(byMate.body.data.description).toBe('mate');
    const byAdmin = await admin().put(one(name), { description: 'admin', team: 'anyone' });
    expect(byAdmin.body.data).toMatchObject({ description: 'admin', team: 'anyone' });
    // The team left: the mate no longer may; the creator still may, and gives it back.
    expect((await as(CALLERS.teamMate).put(one(name), { description: 'x' })).status).toBe(403);
    expect((await as(CALLERS.owner).put(one(name), { team: null })).body.data.team).toBeNull();
    expect((await as(CALLERS.teamMate).del(one(name))).status).toBe(403);
    expect((await as(CALLERS.owner).del(one(name))).status).toBe(200);
    expect((await admin().get(one(name))).status).toBe(404);
  });

  it('refuse everyone else, naming what is missing, and stay unchanged', async () => {
    const name = `${path}-theirs`;
    await owned(path, name, extra);
    const kept = await before(name);
    const refusals: Array<[Identity, string]> = [
      [CALLERS.stranger, 'ownership (it belongs to owner@example.com and team payments)'],
      [CALLERS.viewer, 'the role member (or admin)'],
      [WRITE_KEY, 'ownership (it belongs to owner@example.com and team payments)'],
      [READ_KEY, 'the scope catalog:write'],
    ];
    for (const [caller, missing] of refusals) {
      const who =
        caller.kind === 'key' ? `key:${caller.name}` : (caller as { email: string }).email;
      const put = await as(caller).put(one(name), { description: 'taken', name: 'renamed' });
      expect(put.status).toBe(403);
      expect(put.body.error.message).toBe(`${who} may not update ${resource}: it needs ${missing}`);
      const del = await as(caller).del(one(name));
      expect(del.body.error.message).toBe(`${who} may not delete ${resource}: it needs ${missing}`);
    }
    expect((await as(undefined).del(one(name))).status).toBe(401);
    // A team mate may change it, but not hand it to a team it is not in.
    const moved = await as(CALLERS.teamMate).put(one(name), { team: 'elsewhere' });
    expect(moved.status).toBe(403);
    expect(await before(name)).toEqual(kept);
    expect((await as(CALLERS.stranger).put(one('missing'), { description: 'x' })).status).toBe(404);
  });
});

describe('records made before ownership', () => {
  it('belong to no one: only admins change them', async () => {
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    await db
      .insertInto('services')
      .values({ id: 'legacy01', name: 'legacy', tags: '[]' as unknown as string[] })
      .execute();
    const refused = await as(CALLERS.owner).put('/services/legacy', { description: 'mine now' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'owner@example.com may not update catalog.service: it needs the role admin (it belongs to no one)',
    );
    expect((await admin().get('/services/legacy')).body.data).toMatchObject({
      description: null,
      createdBy: null,
      team: null,
    });
    expect((await admin().put('/services/legacy', { team: 'payments' })).status).toBe(200);
    expect((await as(CALLERS.teamMate).put('/services/legacy', { description: 'd' })).status).toBe(
      200,
    );
  });
});

describe('dependencies', () => {
  it('are changed by the owners of the service that depends; the graph is for everyone', async () => {
    await owned('services', 'cart', {});
    await as(CALLERS.stranger).post('/services', { name: 'ledger' });
    const dependencies = async () => (await admin().get('/services/cart')).body.data.dependencies;
    const stranger = await as(CALLERS.stranger).post('/services/cart/dependencies', {
      dependsOn: 'ledger',
    });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.message).toBe(
      'stranger@example.com may not update catalog.service: it needs ownership (it belongs to owner@example.com and team payments)',
    );
    expect(await dependencies()).toEqual([]);
    // Depending on someone else's service is the depending service's owners' business.
    const added = await as(CALLERS.owner).post('/services/cart/dependencies', {
      dependsOn: 'ledger',
    });
    expect(added.status).toBe(200);
    expect((await as(CALLERS.viewer).get('/deps/cart')).body.data.nodes).toHaveLength(2);
    expect((await as(undefined).get('/deps/cart')).status).toBe(401);
    // Not even the owner of the service depended on (the stranger made ledger) may cut it.
    const removal = await as(CALLERS.stranger).del('/services/cart/dependencies/ledger');
    expect(removal.status).toBe(403);
    expect((await as(CALLERS.viewer).del('/services/cart/dependencies/ledger')).status).toBe(403);
    expect(await dependencies()).toHaveLength(1);
    expect((await as(CALLERS.teamMate).del('/services/cart/dependencies/ledger')).status).toBe(200);
    expect(await dependencies()).toEqual([]);
  });
});

describe('search', () => {
  it('is for every signed-in caller and read key', async () => {
    await owned('services', 'searchable', {});
    for (const caller of [CALLERS.viewer, READ_KEY]) {
      const hits = await as(caller).get('/search?q=searchable');
      expect(hits.body.data.map((h: { name: string }) => h.name)).toEqual(['searchable']);
    }
    expect((await as(undefined).get('/search?q=searchable')).status).toBe(401);
  });
});
