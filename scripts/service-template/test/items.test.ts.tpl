import { jsonApi, serviceUnderTest, useService, type JsonApi } from '@platform/testing';
import service from '../src/index';

const svc = useService(() => serviceUnderTest(service));
let api: JsonApi;
beforeEach(async () => {
  api = jsonApi(svc.app, '/api/v1/{{name}}');
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Creates an item and returns it as the API answered. */
async function create(name: string, description?: string) {
  const res = await api.post('/items', { name, description });
  expect(res.status).toBe(201);
  return res.body.data;
}

const names = async (query = '') =>
  (await api.get(`/items${query}`)).body.data.map((item: { name: string }) => item.name);

describe('POST /items', () => {
  it('creates an item with an 8-character id and ISO timestamps, and lists it', async () => {
    const res = await api.post('/items', { name: 'First', description: 'The first one' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
        name: 'First',
        description: 'The first one',
        {{created}}: expect.stringMatching(ISO),
        {{updated}}: expect.stringMatching(ISO),
      },
    });
    expect((await api.get('/items')).body.data).toEqual([res.body.data]);
  });

  it('stores a missing description as null', async () => {
    expect((await create('Bare')).description).toBeNull();
  });

  it.each([
    [{}, 'Item name is required (name)'],
    [{ name: '' }, 'name must not be empty'],
    [{ name: 5 }, 'name must be a string'],
    [{ name: ' padded' }, 'name has an invalid format'],
    [{ name: 'x'.repeat(101) }, 'name must be at most 100 characters long'],
    [{ name: 'x', description: 'd'.repeat(2001) }, 'description must be at most 2000 characters long'],
  ])('rejects %j with a message naming the field, and stores nothing', async (body, message) => {
    const res = await api.post('/items', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'BAD_REQUEST', message } });
    expect((await api.get('/items')).body.data).toEqual([]);
  });

  it('refuses a name taken in any case with CONFLICT', async () => {
    await create('Widget');
    const res = await api.post('/items', { name: 'WIDGET' });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'CONFLICT',
      message: 'An item named WIDGET exists already',
    });
    expect(await names()).toEqual(['Widget']);
  });
});

describe('GET /items/:idOrName', () => {
  it('finds an item by id and by name in any case', async () => {
    const item = await create('Gadget');
    expect((await api.get(`/items/${item.id}`)).body.data).toEqual(item);
    expect((await api.get('/items/gADGET')).body.data).toEqual(item);
  });

  it('prefers an exact id over a name', async () => {
    const first = await create('First');
    await create(first.id);
    expect((await api.get(`/items/${first.id}`)).body.data).toEqual(first);
  });

  it('answers NOT_FOUND naming what was asked for', async () => {
    const res = await api.get('/items/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'Item not found: nope' },
    });
  });
});

describe('PUT /items/:idOrName', () => {
  it('changes the fields sent and keeps the others', async () => {
    const item = await create('Old', 'Kept');
    const renamed = await api.put('/items/old', { name: 'New' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({
      ...item,
      name: 'New',
      {{updated}}: expect.stringMatching(ISO),
    });
    expect(renamed.body.data.{{updated}} >= item.{{updated}}).toBe(true);
    const cleared = await api.put(`/items/${item.id}`, { description: null });
    expect(cleared.body.data).toMatchObject({ name: 'New', description: null });
    expect((await api.get('/items/new')).body.data).toEqual(cleared.body.data);
  });

  it('lets an item change the case of its own name, but not take another one', async () => {
    await create('Alpha');
    await create('Beta');
    expect((await api.put('/items/alpha', { name: 'ALPHA' })).body.data.name).toBe('ALPHA');
    const res = await api.put('/items/alpha', { name: 'beta' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(await names()).toEqual(['ALPHA', 'Beta']);
  });

  it('validates the body and answers NOT_FOUND for an unknown item', async () => {
    await create('Alpha');
    const bad = await api.put('/items/alpha', { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: 'BAD_REQUEST', message: 'name must not be empty' });
    const missing = await api.put('/items/nope', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Item not found: nope');
  });
});

describe('DELETE /items/:idOrName', () => {
  it('answers with the item as it was, and it is gone', async () => {
    const item = await create('Doomed', 'Soon gone');
    const res = await api.del('/items/DOOMED');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(item);
    expect((await api.get(`/items/${item.id}`)).status).toBe(404);
    expect((await api.del(`/items/${item.id}`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: `Item not found: ${item.id}`,
    });
  });
});

describe('GET /items', () => {
  beforeEach(async () => {
    for (const name of ['delta', 'Alpha', 'echo', 'Charlie', 'bravo']) await create(name);
  });

  it('lists by name in any case', async () => {
    expect(await names()).toEqual(['Alpha', 'bravo', 'Charlie', 'delta', 'echo']);
  });

  it('filters by part of the name, in any case', async () => {
    expect(await names('?name=HA')).toEqual(['Alpha', 'Charlie']);
    expect(await names('?name=a')).toEqual(['Alpha', 'bravo', 'Charlie', 'delta']);
    expect(await names('?name=%25')).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    expect(await names('?limit=2')).toEqual(['Alpha', 'bravo']);
    expect(await names('?limit=2&offset=2')).toEqual(['Charlie', 'delta']);
    expect(await names('?offset=10')).toEqual([]);
  });

  it.each([
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=1001', 'limit must be at most 1000'],
    ['?limit=ten', 'limit must be an integer'],
    ['?offset=-1', 'offset must be at least 0'],
  ])('rejects %s', async (query, message) => {
    const res = await api.get(`/items${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', message });
  });
});

describe('healthz', () => {
  it('answers with the service name and version', async () => {
    expect((await api.get('/healthz')).body).toEqual({
      success: true,
      data: { name: '{{name}}', version: service.version, status: 'ok' },
    });
  });
});
