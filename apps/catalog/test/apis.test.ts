import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

const api = async (name: string, fields: object = {}) => {
  const res = await svc.post('/apis', { name, type: 'openapi', ...fields });
  if (res.status !== 201) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
};
const names = async (query: string) =>
  (await svc.get(`/apis${query}`)).body.data.map((a: { name: string }) => a.name);

const petstore = 'openapi: 3.0.0\ninfo:\n  title: Petstore\n  version: 1.0.0\npaths: {}\n';

describe('APIs', () => {
  it('creates, gets by id or name, lists without definitions, updates and deletes', async () => {
    await svc.post('/systems', { name: 'pets' });
    await svc.post('/owners', { name: 'pet-managers' });
    const created = await svc.post('/apis', {
      name: 'petstore',
      type: 'openapi',
      description: 'The petstore API',
      definition: petstore,
      lifecycle: 'experimental',
      owner: 'PET-MANAGERS',
      system: 'pets',
      tags: ['rest', 'rest', 'pets'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      namespace: 'default',
      name: 'petstore',
      type: 'openapi',
      description: 'The petstore API',
      definition: petstore,
      lifecycle: 'experimental',
      owner: 'pet-managers',
      system: 'pets',
      tags: ['rest', 'pets'],
      providedBy: [],
      consumedBy: [],
      createdBy: null,
      team: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const { id } = created.body.data;
    expect((await svc.get(`/apis/${id}`)).body.data).toEqual(created.body.data);
    expect((await svc.get('/apis/PetStore')).body.data).toEqual(created.body.data);
    const { definition: _d, ...summary } = created.body.data;
    expect((await svc.get('/apis')).body.data).toEqual([summary]);

    const updated = await svc.put('/apis/petstore', {
      name: 'petstore-v2',
      type: 'graphql',
      definition: 'type Query { pets: [String] }',
      system: null,
      lifecycle: null,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id,
      name: 'petstore-v2',
      type: 'graphql',
      definition: 'type Query { pets: [String] }',
      system: null,
      lifecycle: null,
      owner: 'pet-managers',
      tags: ['rest', 'pets'],
    });
    const deleted = await svc.del('/apis/petstore-v2');
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expect((await svc.get(`/apis/${id}`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: `API not found: ${id}`,
    });
  });

  it('shares a name with a service (as in Backstage) but not with another API', async () => {
    await svc.service('petstore');
    await api('petstore');
    const dup = await svc.post('/apis', { name: 'PETSTORE', type: 'grpc' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toEqual({
      code: 'CONFLICT',
      message: 'An API named PETSTORE exists already',
    });
    await api('other');
    expect((await svc.put('/apis/other', { name: 'petStore' })).status).toBe(409);
    expect((await svc.get('/services/petstore')).status).toBe(200);
  });

  it('takes a definition larger than the 1 MiB default body, up to 2 MiB', async () => {
    const big = `openapi: 3.0.0\n${'# a comment line of the definition\n'.repeat(45_000)}`;
    expect(big.length).toBeGreaterThan(1_500_000);
    const created = await api('big', { definition: big });
    expect((await svc.get(`/apis/${created.id}`)).body.data.definition).toBe(big);
    const tooBig = await svc.post('/apis', {
      name: 'huge',
      type: 'openapi',
      definition: 'x'.repeat(2 * 1024 * 1024 + 1),
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toBe('definition must be at most 2097152 characters long');
  });

  it.each([
    [{ name: 'a' }, 'Type is required (type)'],
    [
      { name: 'a', type: 'soap' },
      'type must be one of: openapi, asyncapi, graphql, grpc, trpc, other',
    ],
    [{ type: 'grpc' }, 'API name is required (name)'],
    [{ name: 'a', type: 'grpc', owner: 'ghost' }, 'Unknown owner: ghost'],
    [{ name: 'a', type: 'grpc', system: 'nowhere' }, 'Unknown system: nowhere'],
  ])('refuses %j', async (body, message) => {
    const res = await svc.post('/apis', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect(await names('')).toEqual([]);
  });

  it('filters by type, lifecycle, owner, system and tag, with paging', async () => {
    await svc.post('/systems', { name: 'shop' });
    await svc.post('/owners', { name: 'ann' });
    await api('cart', { system: 'shop', owner: 'ann', tags: ['web'], lifecycle: 'production' });
    await api('events', { type: 'asyncapi', system: 'shop', lifecycle: 'Production' });
    await api('graph', { type: 'graphql', owner: 'ann', tags: ['web'] });
    expect(await names('?type=asyncapi')).toEqual(['events']);
    expect(await names('?lifecycle=PRODUCTION')).toEqual(['cart', 'events']);
    expect(await names('?owner=ANN')).toEqual(['cart', 'graph']);
    expect(await names('?system=shop&tag=web')).toEqual(['cart']);
    expect(await names('?limit=1&offset=2')).toEqual(['graph']);
    expect((await svc.get('/apis?type=soap')).status).toBe(400);
  });
});

describe('services providing and consuming APIs', () => {
  it('lists them by id, named by id or name, and the API lists its services', async () => {
    const orders = await api('orders');
    const payments = await api('payments', { type: 'grpc' });
    const shop = await svc.service('shop', {
      providesApis: ['ORDERS'],
      consumesApis: [payments.id],
    });
    expect(shop).toMatchObject({ providesApis: [orders.id], consumesApis: [payments.id] });
    const pay = await svc.service('pay', { providesApis: ['payments'] });
    const web = await svc.service('web', { consumesApis: ['orders', 'payments', 'orders'] });
    expect(web.consumesApis).toEqual([orders.id, payments.id]);
    expect((await svc.get('/apis/payments')).body.data).toMatchObject({
      providedBy: [pay.id],
      consumedBy: [shop.id, web.id],
    });
    const changed = await svc.put('/services/web', { consumesApis: ['payments'] });
    expect(changed.body.data).toMatchObject({ consumesApis: [payments.id], providesApis: [] });
    expect((await svc.get('/services/web')).body.data.consumesApis).toEqual([payments.id]);
  });

  it('answers 404 for an unknown API and changes nothing', async () => {
    await api('orders');
    const res = await svc.post('/services', { name: 'shop', providesApis: ['orders', 'ghost'] });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: 'API not found: ghost' });
    expect((await svc.get('/services')).body.data).toEqual([]);
    await svc.service('shop', { providesApis: ['orders'] });
    expect((await svc.put('/services/shop', { providesApis: ['ghost'] })).status).toBe(404);
    expect((await svc.get('/services/shop')).body.data.providesApis).toHaveLength(1);
  });

  it('keeps an API that services provide or consume (409 naming them), and deletes it once none does', async () => {
    const orders = await api('orders');
    const events = await api('events', { type: 'asyncapi' });
    await svc.service('shop', { providesApis: ['orders', 'events'] });
    await svc.service('Web', { consumesApis: ['orders'] });
    await svc.service('admin', { consumesApis: ['orders'] });
    const refused = await svc.del('/apis/orders');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'CONFLICT',
      message:
        'API orders still has services providing it: shop; services consuming it: admin, Web',
    });
    expect((await svc.get('/services/shop')).body.data.providesApis).toEqual([
      orders.id,
      events.id,
    ]);
    expect((await svc.del('/apis/events')).body.error.message).toBe(
      'API events still has services providing it: shop',
    );
    await svc.put('/services/shop', { providesApis: ['events'] });
    await svc.del('/services/Web');
    await svc.put('/services/admin', { consumesApis: [] });
    expect((await svc.del('/apis/orders')).status).toBe(200);
    expect((await svc.get(`/apis/${orders.id}`)).status).toBe(404);
    await svc.del('/services/shop');
    expect((await svc.get('/apis/events')).body.data.providedBy).toEqual([]);
  });

  it('keeps a system or an owner that an API points at (409 naming it)', async () => {
    await svc.post('/systems', { name: 'shop' });
    await svc.post('/owners', { name: 'ann' });
    await api('orders', { system: 'shop', owner: 'ann' });
    await svc.service('cart', { system: 'shop' });
    expect((await svc.del('/systems/shop')).body.error).toEqual({
      code: 'CONFLICT',
      message: 'System shop still has services: cart; APIs: orders',
    });
    expect((await svc.del('/owners/ann')).body.error.message).toBe(
      'Owner ann still has APIs: orders',
    );
  });
});
