import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import { catalog } from '../src/index';

// An import creates as a member would and changes what exists as a PUT would: only what the
// importer owns (issue 31). Otherwise 403 naming every record refused, and nothing written.
const svc = useService(() => serviceUnderTest(catalog, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, catalog.prefix, identity);
const admin = () => as(CALLERS.admin);

const entity = (kind: string, name: string, spec: object = {}, metadata: object = {}) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind,
  metadata: { name, ...metadata },
  spec,
});
const run = (identity: Identity | undefined, entities: object[], dryRun = false) =>
  as(identity).post('/import', { entities, dryRun });

describe('import with authentication on', () => {
  it('records the importer as the creator of what it creates', async () => {
    const made = await run(CALLERS.stranger, [
      entity('Group', 'imported-team'),
      entity('System', 'imported-system', { owner: 'imported-team' }),
      entity('API', 'imported-api', { type: 'openapi', owner: 'imported-team' }),
      entity('Component', 'imported-service', { owner: 'imported-team' }),
    ]);
    expect(made.status).toBe(200);
    expect(made.body.data.created).toBe(4);
    for (const path of ['/owners/imported-team', '/systems/imported-system'])
      expect((await admin().get(path)).body.data.createdBy).toBe('stranger@example.com');
    for (const path of ['/apis/imported-api', '/services/imported-service'])
      expect((await admin().get(path)).body.data).toMatchObject({
        createdBy: 'stranger@example.com',
        team: null,
      });
    const teamKey = keyCaller(['catalog:write'], { owner: null, team: 'payments', name: 'ci' });
    await run(teamKey, [entity('Component', 'by-ci')]);
    expect((await admin().get('/services/by-ci')).body.data).toMatchObject({
      createdBy: 'key:ci',
      team: 'payments',
    });
    // Its creator imports again, with a change: its own records.
    const again = await run(CALLERS.stranger, [
      entity('Component', 'imported-service', { owner: 'imported-team' }, { description: 'd' }),
    ]);
    expect(again.body.data).toMatchObject({ updated: 1, created: 0 });
  });

  it('refuses to change records of others, naming them all, and writes nothing', async () => {
    await as(CALLERS.owner).post('/owners', { name: 'core' });
    await as(CALLERS.owner).post('/services', { name: 'cart', description: 'the cart' });
    await admin().put('/services/cart', { team: 'payments' });
    await admin().post('/systems', { name: 'shop' });
    const before = (await admin().get('/services/cart')).body.data;
    const entities = [
      entity('Component', 'cart', {}, { description: 'hijacked' }),
      entity('System', 'shop', {}, { description: 'hijacked' }),
      entity('Group', 'core', { profile: { email: 'evil@example.com' } }),
      entity('Component', 'brand-new'),
    ];
    for (const dryRun of [false, true]) {
      const refused = await run(CALLERS.stranger, entities, dryRun);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'FORBIDDEN',
        message:
          'stranger@example.com may not update catalog records it does not own, nothing written: ' +
          'Component cart (it belongs to owner@example.com and team payments), ' +
          'System shop (it belongs to root@example.com), ' +
          'Group core (it belongs to team core)',
      });
    }
    expect((await admin().get('/services/cart')).body.data).toEqual(before);
    expect((await admin().get('/owners/core')).body.data.email).toBeNull();
    expect((await admin().get('/services/brand-new')).status).toBe(404);
    // The cart's team may: a team mate imports the change (the rest is not in this import).
    const mate = await run(CALLERS.teamMate, [
      entity('Component', 'cart', {}, { description: 'd' }),
    ]);
    expect(mate.status).toBe(200);
    expect((await admin().get('/services/cart')).body.data.description).toBe('d');
  });

  it('lets anyone import what is already so (nothing is written), and admins change anything', async () => {
    await as(CALLERS.owner).post('/services', { name: 'same' });
    const same = await run(CALLERS.stranger, [entity('Component', 'same')]);
    expect(same.body.data).toMatchObject({ unchanged: 1, updated: 0 });
    const byAdmin = await run(CALLERS.admin, [entity('Component', 'same', {}, { tags: ['x'] })]);
    expect(byAdmin.body.data.updated).toBe(1);
    expect((await admin().get('/services/same')).body.data.createdBy).toBe('owner@example.com');
  });

  it("keeps what a group outside the import declared; joining a group needs the group's ownership", async () => {
    const user = (name: string, memberOf: string[]) => entity('User', name, { memberOf });
    const users = async () =>
      (await admin().get('/owners/reviewers')).body.data.users.map((u: any) => u.name).sort();
    // The group lists dan among its members: its side of the relation.
    const made = await run(CALLERS.owner, [
      entity('Group', 'reviewers', { members: ['dan'] }),
      user('dan', []),
    ]);
    expect(made.status).toBe(200);
    // Dan's own file again, without the group: its memberOf takes nothing the group declared.
    expect((await run(CALLERS.owner, [user('dan', [])])).body.data).toMatchObject({
      unchanged: 1,
    });
    expect(await users()).toEqual(['dan']);
    // A stranger's user joins the owner's group through its memberOf: the group changes.
    const joined = await run(CALLERS.stranger, [user('eve', ['reviewers'])]);
    expect(joined.status).toBe(403);
    expect(joined.body.error.message).toContain(
      'Group reviewers (in User eve spec.memberOf) (it belongs to team reviewers)',
    );
    expect((await admin().get('/owners/eve')).status).toBe(404);
    // Those who may change the group may (its team, admins); eve leaving again (her side) keeps
    // dan (the group's side).
    expect((await run(CALLERS.admin, [user('eve', ['reviewers'])])).status).toBe(200);
    expect(await users()).toEqual(['dan', 'eve']);
    expect((await run(CALLERS.admin, [user('eve', [])])).body.data.updated).toBe(1);
    expect(await users()).toEqual(['dan']);
  });

  it('is not for viewers, read keys or anonymous callers', async () => {
    const entities = [entity('Component', 'viewers-own')];
    const viewer = await run(CALLERS.viewer, entities);
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.message).toBe(
      'viewer@example.com may not create catalog.import: it needs the role member (or admin)',
    );
    const key = await run(keyCaller(['catalog:read']), entities);
    expect(key.body.error.message).toMatch(/needs the scope catalog:write$/);
    expect((await run(undefined, entities)).status).toBe(401);
    expect((await admin().get('/services/viewers-own')).status).toBe(404);
  });
});
