import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import type { BillingDatabase } from '../src/database';
import { billing } from '../src/index';

// Items, categories, reports, status and search with authentication on (issue 31): shared
// knowledge for every signed-in caller; members record; owners, their team and admins change.

const svc = useService(() => serviceUnderTest(billing, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, billing.prefix, identity);
const { admin, owner, teamMate, stranger, viewer } = CALLERS;
const EMAIL = {
  admin: 'root@example.com',
  owner: 'owner@example.com',
  teamMate: 'mate@example.com',
  stranger: 'stranger@example.com',
};
const readKey = keyCaller(['billing:read']);
const otherKey = keyCaller(['catalog:write']);
/** A personal key of the owner: it acts as the owner, within its scopes. */
const ownerKey = keyCaller(['billing:write'], { owner: EMAIL.owner, name: 'owner-key' });
const emailOf = (identity: Identity) => (identity.kind === 'user' ? identity.email : '');

/** An item the owner made, of team payments (only an admin may name a team the owner is not in). */
async function ownedItem(fields: object = {}) {
  const made = await as(owner).post('/items', { name: 'GPU', amount: 500, ...fields });
  expect(made.status).toBe(201);
  const id = made.body.data.id;
  const teamed = await as(admin).put(`/items/${id}`, { team: 'payments' });
  expect(teamed.body.data).toMatchObject({ createdBy: EMAIL.owner, team: 'payments' });
  return teamed.body.data;
}
const readBack = async (path: string) => (await as(admin).get(path)).body.data;

describe('reading billing: shared knowledge', () => {
  it('lets every signed-in caller read every report, item and category; nobody anonymous', async () => {
    const item = await ownedItem({ provider: 'aws', providerRef: 'r-read' });
    await as(owner).post('/categories', { name: 'Reading' });
    const paths = [
      '/items',
      `/items/${item.id}`,
      '/items/by-provider-ref?provider=aws&providerRef=r-read',
      '/categories',
      '/categories/reading',
      '/reports/summary',
      '/reports/breakdown?by=provider',
      '/reports/trend?interval=month',
      '/status',
      '/search?q=gpu',
    ];
    const readers = [viewer, stranger, owner, teamMate, admin, readKey, ownerKey];
    for (const path of paths) {
      for (const caller of readers)
        expect([path, (await as(caller).get(path)).status]).toEqual([path, 200]);
      const anonymous = await as(undefined).get(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
      const other = await as(otherKey).get(path);
      expect(other.status).toBe(403);
      expect(other.body.error.message).toMatch(
        /^key:key-catalog:write may not read billing\.(item|category|report|status): it needs the scope billing:read$/,
      );
    }
  });
});

describe('recording items and categories: members', () => {
  it('records who made an item, and refuses viewers, read keys and anonymous callers', async () => {
    const before = (await readBack('/items?limit=1000')).length;
    for (const [caller, status, message] of [
      [undefined, 401, /^Authentication required/],
      [
        viewer,
        403,
        /^viewer@example\.com may not create billing\.item: it needs the role member \(or admin\)$/,
      ],
      [readKey, 403, /may not create billing\.item: it needs the scope billing:write$/],
      [otherKey, 403, /it needs the scope billing:write$/],
    ] as const) {
      const res = await as(caller).post('/items', { name: 'refused', amount: 1 });
      expect([res.status, res.body.error.message]).toEqual([
        status,
        expect.stringMatching(message),
      ]);
      const category = await as(caller).post('/categories', { name: `refused-${status}` });
      expect(category.status).toBe(status);
    }
    expect(await readBack('/items?limit=1000')).toHaveLength(before);
    expect(await readBack('/search?q=refused')).toEqual([]);
    expect((await as(admin).get('/categories/refused-403')).status).toBe(404);

    for (const caller of [stranger, owner, teamMate, admin]) {
      const res = await as(caller).post('/items', { name: 'mine', amount: 2 });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ createdBy: emailOf(caller), team: null });
    }
    const byKey = await as(ownerKey).post('/categories', { name: 'By key' });
    expect(byKey.body.data).toMatchObject({ createdBy: EMAIL.owner, team: null });
    const teamKey = keyCaller(['billing:write'], { owner: null, team: 'payments', name: 'ci' });
    const byTeamKey = await as(teamKey).post('/items', { name: 'ci', amount: 3 });
    expect(byTeamKey.body.data).toMatchObject({ createdBy: 'key:ci', team: 'payments' });
  });

  it('names a team only its members (or an admin) are in, and makes nothing otherwise', async () => {
    const refused = await as(owner).post('/items', {
      name: 'claimed',
      amount: 1,
      team: 'payments',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^owner@example\.com may not name team payments/);
    const category = await as(owner).post('/categories', { name: 'Claimed', team: 'payments' });
    expect(category.status).toBe(403);
    expect(await readBack('/search?q=claimed')).toEqual([]);
    expect((await as(admin).get('/categories/claimed')).status).toBe(404);
    const mate = await as(teamMate).post('/items', { name: 'team', amount: 1, team: 'Payments' });
    expect(mate.body.data).toMatchObject({ createdBy: EMAIL.teamMate, team: 'Payments' });
    const anyTeam = await as(admin).post('/categories', { name: 'Ops', team: 'ops' });
    expect(anyTeam.body.data).toMatchObject({ createdBy: EMAIL.admin, team: 'ops' });
  });
});

describe('changing items: their creator, their team and admins', () => {
  it('refuses everyone else and leaves the item as it was', async () => {
    const item = await ownedItem();
    const path = `/items/${item.id}`;
    for (const [caller, status, missing] of [
      [undefined, 401, ''],
      [viewer, 403, 'the role member (or admin)'],
      [stranger, 403, 'ownership (it belongs to owner@example.com and team payments)'],
      [readKey, 403, 'the scope billing:write'],
      [otherKey, 403, 'the scope billing:write'],
      [keyCaller(['billing:write'], { owner: EMAIL.stranger }), 403, 'ownership'],
    ] as const) {
      for (const res of [await as(caller).put(path, { amount: 1 }), await as(caller).del(path)]) {
        expect(res.status).toBe(status);
        if (caller) expect(res.body.error.message).toContain(`: it needs ${missing}`);
        if (caller?.kind === 'user')
          expect(res.body.error.message).toMatch(/^\S+ may not (update|delete) billing\.item: /);
      }
      expect(await readBack(path)).toEqual(item);
    }
  });

  it('lets the owner, a personal key of theirs, a team member and an admin change it', async () => {
    const item = await ownedItem();
    const path = `/items/${item.id}`;
    for (const [caller, amount] of [
      [owner, 10],
      [ownerKey, 20],
      [teamMate, 30],
      [admin, 40],
    ] as const) {
      const res = await as(caller).put(path, { amount });
      expect([res.status, res.body.data.amount]).toEqual([200, amount]);
    }
    expect(await readBack(path)).toMatchObject({
      amount: 40,
      createdBy: EMAIL.owner,
      team: 'payments',
    });
    expect((await as(teamMate).del(path)).status).toBe(200);
    expect((await as(admin).get(path)).status).toBe(404);
    // No such item: 404 as before, for any member.
    expect((await as(stranger).put('/items/nope', { amount: 1 })).status).toBe(404);
    expect((await as(stranger).del('/items/nope')).status).toBe(404);
  });

  it('refuses moving an item into a team the caller is not in (a takeover), changing nothing', async () => {
    const item = await ownedItem();
    const path = `/items/${item.id}`;
    const stolen = await as(stranger).put(path, { team: 'strangers', amount: 1 });
    expect(stolen.status).toBe(403);
    const moved = await as(owner).put(path, { team: 'finance', amount: 1 });
    expect(moved.status).toBe(403);
    expect(moved.body.error.message).toMatch(/^owner@example\.com may not name team finance/);
    expect(await readBack(path)).toEqual(item);
    const cleared = await as(owner).put(path, { team: null });
    expect(cleared.body.data).toMatchObject({ createdBy: EMAIL.owner, team: null });
    // The creator is the server's: a body cannot name one.
    expect((await as(owner).put(path, { createdBy: EMAIL.stranger })).status).toBe(400);
    const forged = await as(stranger).post('/items', {
      name: 'f',
      amount: 1,
      createdBy: EMAIL.owner,
    });
    expect(forged.status).toBe(400);
    expect(await readBack(path)).toMatchObject({ createdBy: EMAIL.owner });
  });

  it('keeps items made before ownership (no creator, no team) for admins only', async () => {
    const item = await ownedItem();
    const items = svc.db.schema<BillingDatabase>(billing.name);
    await items
      .updateTable('items')
      .set({ created_by: null, team: null })
      .where('id', '=', item.id)
      .execute();
    const path = `/items/${item.id}`;
    const before = await readBack(path);
    for (const caller of [owner, teamMate, stranger]) {
      const res = await as(caller).del(path);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/it needs the role admin \(it belongs to no one\)$/);
    }
    expect(await readBack(path)).toEqual(before);
    expect((await as(admin).put(path, { amount: 7 })).body.data.amount).toBe(7);
  });
});

describe('changing categories: their creator, their team and admins', () => {
  it('decides by the category the path names, by id first and then by name in any case', async () => {
    const mine = (await as(owner).post('/categories', { name: 'Compute' })).body.data;
    await as(admin).put(`/categories/${mine.id}`, { team: 'payments' });
    const before = await readBack('/categories/compute');
    // A stranger's category named like the owner's id must not make the id theirs. The name is
    // the id with its letters' case swapped: never the id itself (ids are case-sensitive, and an
    // all-lowercase id lowercased would be), yet the same name to the case-blind name lookup.
    const swapped = [...mine.id].map((c) =>
      c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
    );
    const decoy = await as(stranger).post('/categories', { name: swapped.join('') });
    expect(decoy.status).toBe(201);
    for (const path of [`/categories/${mine.id}`, '/categories/COMPUTE']) {
      for (const res of [
        await as(stranger).put(path, { color: '#000000' }),
        await as(stranger).del(path),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(
          /^stranger@example\.com may not (update|delete) billing\.category: it needs ownership \(it belongs to owner@example\.com and team payments\)$/,
        );
      }
      expect(await as(viewer).put(path, { color: '#000000' })).toMatchObject({ status: 403 });
    }
    expect(await readBack(`/categories/${mine.id}`)).toEqual(before);
    // The stranger's own category, by its name: theirs to change.
    expect(
      (await as(stranger).put(`/categories/${decoy.body.data.name}`, { color: '#00FF00' })).status,
    ).toBe(200);

    expect((await as(owner).put('/categories/compute', { color: '#ABCDEF' })).body.data.color).toBe(
      '#abcdef',
    );
    expect((await as(ownerKey).put(`/categories/${mine.id}`, { name: 'Compute2' })).status).toBe(
      200,
    );
    expect((await as(teamMate).del('/categories/COMPUTE2')).status).toBe(200);
    // Gone: its id now finds the stranger's category by name, as the handlers do.
    expect((await readBack(`/categories/${mine.id}`)).id).toBe(decoy.body.data.id);
    expect((await as(stranger).del('/categories/none-such')).status).toBe(404);
  });
});
