import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

const owner = async (name: string, fields: object = {}) => {
  const res = await svc.post('/owners', { name, ...fields });
  if (res.status !== 201) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
};
const names = async (query: string) =>
  (await svc.get(query)).body.data.map((r: { name: string }) => r.name);

describe('systems: owner and tags', () => {
  it('keeps an owner (group or user, by id or name) and tags; null clears the owner', async () => {
    const platform = await owner('platform');
    await owner('ann', { kind: 'user', email: 'ann@example.com' });
    const created = await svc.post('/systems', {
      name: 'shop',
      owner: platform.id,
      tags: ['web', 'core', 'web'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ owner: 'platform', tags: ['web', 'core'] });
    await svc.post('/systems', { name: 'mail', owner: 'ANN', tags: ['batch'] });
    expect((await svc.get('/systems/shop')).body.data).toMatchObject({
      owner: 'platform',
      tags: ['web', 'core'],
      services: [],
    });
    expect(await names('/systems?owner=ann')).toEqual(['mail']);
    expect(await names('/systems?tag=web')).toEqual(['shop']);
    await svc.put('/owners/platform', { name: 'platform-team' });
    expect((await svc.get('/systems/shop')).body.data.owner).toBe('platform-team');
    const cleared = await svc.put('/systems/shop', { owner: null, tags: [] });
    expect(cleared.body.data).toMatchObject({ owner: null, tags: [] });
    expect((await svc.post('/systems', { name: 'x', owner: 'ghost' })).body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Unknown owner: ghost',
    });
  });

  it('keeps an owner that systems still point at (409 naming them)', async () => {
    await owner('platform');
    await svc.post('/systems', { name: 'shop', owner: 'platform' });
    expect((await svc.del('/owners/platform')).body.error).toEqual({
      code: 'CONFLICT',
      message: 'Owner platform still has systems: shop',
    });
  });
});

describe('owners: groups, users and parents', () => {
  it('makes a tree of groups; a group lists its children, and people are users', async () => {
    const org = await owner('org');
    expect(org).toMatchObject({ kind: 'group', parent: null });
    await owner('platform', { parent: 'ORG' });
    await owner('payments', { parent: org.id, team: 'Payments' });
    const ann = await owner('ann', { kind: 'user', email: 'ann@example.com' });
    expect(ann).toMatchObject({ kind: 'user', parent: null });
    expect((await svc.get('/owners/org')).body.data).toMatchObject({
      kind: 'group',
      parent: null,
      children: [
        { id: expect.any(String), name: 'payments' },
        { id: expect.any(String), name: 'platform' },
      ],
      services: [],
    });
    expect((await svc.get('/owners/platform')).body.data.parent).toBe('org');
    expect(await names('/owners?parent=org')).toEqual(['payments', 'platform']);
    expect(await names('/owners?kind=user')).toEqual(['ann']);
    const moved = await svc.put('/owners/payments', { parent: 'platform' });
    expect(moved.body.data.parent).toBe('platform');
    expect((await svc.put('/owners/payments', { parent: null })).body.data.parent).toBeNull();
  });

  it('refuses a cycle, naming it, and changes nothing', async () => {
    await owner('org');
    await owner('platform', { parent: 'org' });
    await owner('infra', { parent: 'platform' });
    const cycle = await svc.put('/owners/org', { parent: 'infra' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'parent would make a cycle: org -> infra -> platform -> org',
    });
    const self = await svc.put('/owners/org', { parent: 'ORG' });
    expect(self.body.error.message).toBe('parent would make a cycle: org -> org');
    expect((await svc.get('/owners/org')).body.data.parent).toBeNull();
  });

  it('refuses to delete a parent still referenced, naming the children', async () => {
    await owner('org');
    await owner('platform', { parent: 'org' });
    await owner('data', { parent: 'org' });
    await svc.service('api', { owner: 'org' });
    const refused = await svc.del('/owners/org');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'CONFLICT',
      message: 'Owner org still has services: api; child groups: data, platform',
    });
    await svc.del('/services/api');
    await svc.del('/owners/data');
    expect((await svc.del('/owners/org')).body.error.message).toBe(
      'Owner org still has child groups: platform',
    );
    await svc.put('/owners/platform', { parent: null });
    expect((await svc.del('/owners/org')).status).toBe(200);
  });

  it('gives a parent to groups only, and only a group as parent', async () => {
    await owner('org');
    await owner('ann', { kind: 'user' });
    const userParent = await svc.post('/owners', { name: 'x', parent: 'ann' });
    expect(userParent.status).toBe(400);
    expect(userParent.body.error.message).toBe('parent must be a group: ann is a user');
    const userChild = await svc.post('/owners', { name: 'bob', kind: 'user', parent: 'org' });
    expect(userChild.body.error.message).toBe(
      'parent: only a group can have a parent, and this owner is a user',
    );
    expect((await svc.put('/owners/ann', { parent: 'org' })).status).toBe(400);
    expect((await svc.post('/owners', { name: 'y', parent: 'ghost' })).body.error.message).toBe(
      'Unknown parent: ghost',
    );
    expect((await svc.post('/owners', { name: 'z', kind: 'robot' })).body.error.message).toBe(
      'kind must be one of: group, user',
    );
    await owner('platform', { parent: 'org' });
    const demoted = await svc.put('/owners/org', { kind: 'user' });
    expect(demoted.status).toBe(409);
    expect(demoted.body.error.message).toBe('Owner org still has child groups: platform');
    expect(await names('/owners')).toEqual(['ann', 'org', 'platform']);
  });
});
