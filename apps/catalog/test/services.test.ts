import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

const names = async (query: string) =>
  (await svc.get(`/services${query}`)).body.data.map((s: { name: string }) => s.name);

describe('services', () => {
  it('registers a service with its system and owner, and gets it by id or by name', async () => {
    await svc.post('/systems', { name: 'Payments' });
    await svc.post('/owners', { name: 'Team A', email: 'a@example.com' });
    const { status, body } = await svc.post('/services', {
      name: 'billing-api',
      description: 'Invoices',
      tags: ['http', 'core', 'http'],
      system: 'payments',
      owner: 'team a',
    });
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      namespace: 'default',
      kind: 'component',
      name: 'billing-api',
      description: 'Invoices',
      tags: ['http', 'core'],
      system: 'Payments',
      owner: 'Team A',
      type: null,
      lifecycle: null,
      links: [],
      annotations: {},
      dependencies: [],
      providesApis: [],
      consumesApis: [],
      createdBy: null,
      team: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await svc.get(`/services/${body.data.id}`)).body.data).toEqual(body.data);
    expect((await svc.get('/services/BILLING-API')).body.data).toEqual(body.data);
  });

  it('prefers an exact id over a name (spec 2.1)', async () => {
    const first = await svc.service('alpha');
    const namedLikeIt = await svc.service(first.id);
    expect((await svc.get(`/services/${first.id}`)).body.data.id).toBe(first.id);
    expect((await svc.get(`/services/${namedLikeIt.id}`)).body.data.name).toBe(first.id);
  });

  it('answers 409 for a name taken case-insensitively, on create and on rename', async () => {
    await svc.service('Orders');
    const dup = await svc.post('/services', { name: 'ORDERS' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toEqual({
      code: 'CONFLICT',
      message: 'A service named ORDERS exists already',
    });
    await svc.service('carts');
    const rename = await svc.put('/services/carts', { name: 'orders' });
    expect(rename.status).toBe(409);
    expect(rename.body.error.message).toBe('A service named orders exists already');
    expect(await names('')).toEqual(['carts', 'Orders']);
  });

  it.each([
    [{}, 'Service name is required (name)'],
    [{ name: '' }, 'name must not be empty'],
    [{ name: ' padded' }, 'name has an invalid format'],
    [{ name: 'x'.repeat(101) }, 'name must be at most 100 characters long'],
    [{ name: 'a', tags: 'web' }, 'tags must be an array'],
    [{ name: 'a', tags: [''] }, 'tags[0] must not be empty'],
    [{ name: 'a', tags: [1] }, 'tags[0] must be a string'],
    [{ name: 'a', system: 'nowhere' }, 'Unknown system: nowhere'],
    [{ name: 'a', owner: 'nobody' }, 'Unknown owner: nobody'],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/services', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect(await names('')).toEqual([]);
  });

  it('updates the fields sent and keeps the others; null clears', async () => {
    await svc.post('/systems', { name: 'S1' });
    await svc.post('/systems', { name: 'S2' });
    const created = await svc.service('web', { description: 'd', tags: ['a'], system: 'S1' });
    const { status, body } = await svc.put('/services/web', { system: 'S2', tags: ['b', 'c'] });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      id: created.id,
      name: 'web',
      description: 'd',
      tags: ['b', 'c'],
      system: 'S2',
    });
    expect(body.data.updatedAt >= created.updatedAt).toBe(true);
    const cleared = await svc.put(`/services/${created.id}`, {
      system: null,
      description: null,
      name: 'web2',
    });
    expect(cleared.body.data).toMatchObject({
      name: 'web2',
      system: null,
      description: null,
      tags: ['b', 'c'],
    });
    const bad = await svc.put('/services/web2', { owner: 'ghost' });
    expect(bad.body.error).toEqual({ code: 'BAD_REQUEST', message: 'Unknown owner: ghost' });
    expect((await svc.put('/services/nope', { description: 'x' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Service not found: nope',
    });
  });

  it('replaces the dependencies through PUT, checking each', async () => {
    await svc.service('a');
    const b = await svc.service('b');
    const c = await svc.service('c');
    await svc.depend('a', 'b');
    expect(
      (await svc.put('/services/a', { dependencies: ['c', b.id] })).body.data.dependencies,
    ).toEqual([c.id, b.id]);
    expect((await svc.put('/services/a', { dependencies: ['a'] })).body.error.message).toBe(
      'A service cannot depend on itself',
    );
    expect((await svc.put('/services/a', { dependencies: ['zzz'] })).body.error.message).toBe(
      'Service not found: zzz',
    );
    expect((await svc.get('/services/a')).body.data.dependencies).toEqual([c.id, b.id]);
  });

  it('filters by system, owner and tag, with paging', async () => {
    await svc.post('/systems', { name: 'Shop' });
    await svc.post('/owners', { name: 'ann' });
    await svc.service('cart', { system: 'Shop', owner: 'ann', tags: ['web'] });
    await svc.service('checkout', { system: 'shop', tags: ['web', 'pci'] });
    await svc.service('mailer', { owner: 'ann', tags: ['batch'] });
    expect(await names('?system=SHOP')).toEqual(['cart', 'checkout']);
    expect(await names('?owner=ann')).toEqual(['cart', 'mailer']);
    expect(await names('?tag=web')).toEqual(['cart', 'checkout']);
    expect(await names('?tag=web&owner=ann')).toEqual(['cart']);
    expect(await names('?limit=1&offset=1')).toEqual(['checkout']);
    expect(await names('?system=none')).toEqual([]);
    expect((await svc.get('/services?limit=0')).body.error.message).toBe(
      'limit must be at least 1',
    );
  });

  it('removes a service, and it from the dependencies of others', async () => {
    const db = await svc.service('db');
    await svc.service('api');
    await svc.service('worker');
    await svc.depend('api', 'db');
    await svc.depend('worker', 'db', 'api');
    const { status, body } = await svc.del('/services/DB');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: db.id, name: 'db' });
    expect((await svc.get(`/services/${db.id}`)).status).toBe(404);
    expect((await svc.get('/services/api')).body.data.dependencies).toEqual([]);
    expect((await svc.get('/services/worker')).body.data.dependencies).toHaveLength(1);
    expect((await svc.del('/services/db')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Service not found: db',
    });
  });
});

describe('dependencies', () => {
  it('adds one by id or name, idempotently, and answers with the updated list', async () => {
    const api = await svc.service('api');
    const db = await svc.service('db');
    const cache = await svc.service('cache');
    expect((await svc.post(`/services/${api.id}/dependencies`, { dependsOn: db.id })).body).toEqual(
      {
        success: true,
        data: [db.id],
      },
    );
    expect(
      (await svc.post('/services/api/dependencies', { dependsOn: 'CACHE' })).body.data,
    ).toEqual([db.id, cache.id]);
    expect((await svc.post('/services/api/dependencies', { dependsOn: 'db' })).body.data).toEqual([
      db.id,
      cache.id,
    ]);
    expect((await svc.get('/services/api')).body.data.dependencies).toEqual([db.id, cache.id]);
  });

  it('answers 404 when either service is missing and 400 for a self-dependency', async () => {
    await svc.service('api');
    const missingTarget = await svc.post('/services/api/dependencies', { dependsOn: 'ghost' });
    expect(missingTarget.status).toBe(404);
    expect(missingTarget.body.error.message).toBe('Service not found: ghost');
    const missingService = await svc.post('/services/ghost/dependencies', { dependsOn: 'api' });
    expect(missingService.status).toBe(404);
    const self = await svc.post('/services/api/dependencies', { dependsOn: 'API' });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toBe('A service cannot depend on itself');
    const none = await svc.post('/services/api/dependencies', {});
    expect(none.body.error.message).toBe('DependsOn is required (dependsOn)');
    expect((await svc.get('/services/api')).body.data.dependencies).toEqual([]);
  });

  it('removes one, and says when there was none', async () => {
    await svc.service('api');
    const db = await svc.service('db');
    const cache = await svc.service('cache');
    await svc.depend('api', 'db', 'cache');
    expect((await svc.del('/services/api/dependencies/db')).body.data).toEqual([cache.id]);
    const again = await svc.del(`/services/api/dependencies/${db.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('Dependency not found: api does not depend on db');
    expect((await svc.del('/services/api/dependencies/ghost')).body.error.message).toBe(
      'Service not found: ghost',
    );
  });
});
