import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

describe.each([
  [
    'systems',
    'System',
    { description: 'All about money' },
    { description: 'Changed' },
    { owner: null, tags: [], createdBy: null, team: null, namespace: 'default', domain: null },
    {},
  ],
  [
    'owners',
    'Owner',
    { email: 'pay@example.com', team: 'Payments' },
    { team: 'Billing', email: null },
    {
      kind: 'group',
      parent: null,
      members: [],
      createdBy: null,
      namespace: 'default',
      type: null,
      description: null,
      picture: null,
    },
    { children: [], users: [], memberOf: [] },
  ],
] as const)('%s', (path, resource, fields, change, defaults, links) => {
  const key = path === 'systems' ? 'system' : 'owner';

  it('creates, lists, gets with its services, updates and deletes', async () => {
    const created = await svc.post(`/${path}`, { name: 'Pay', ...fields });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'Pay',
      ...fields,
      ...defaults,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { id } = created.body.data;
    await svc.post(`/${path}`, { name: 'another' });
    expect((await svc.get(`/${path}`)).body.data.map((r: { name: string }) => r.name)).toEqual([
      'another',
      'Pay',
    ]);
    expect((await svc.get(`/${path}?limit=1`)).body.data).toHaveLength(1);

    const api = await svc.service('api', { [key]: 'pay' });
    await svc.service('web', { [key]: id });
    const got = await svc.get(`/${path}/PAY`);
    expect(got.body.data).toEqual({
      ...created.body.data,
      ...links,
      services: [
        { id: api.id, name: 'api' },
        { id: expect.any(String), name: 'web' },
      ],
    });

    const updated = await svc.put(`/${path}/${id}`, { name: 'Payments', ...change });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id, name: 'Payments', ...change });
    // Services follow the record, renamed or not.
    expect((await svc.get('/services/api')).body.data[key]).toBe('Payments');

    const refused = await svc.del(`/${path}/payments`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'CONFLICT',
      message: `${resource} Payments still has services: api, web`,
    });
    await svc.put('/services/api', { [key]: null });
    await svc.del('/services/web');
    const deleted = await svc.del(`/${path}/payments`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(id);
    expect((await svc.get(`/${path}/${id}`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: `${resource} not found: ${id}`,
    });
  });

  it('answers 409 for a name taken case-insensitively, on create and on rename', async () => {
    await svc.post(`/${path}`, { name: 'Core' });
    const dup = await svc.post(`/${path}`, { name: 'CORE' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(`A ${resource.toLowerCase()} named CORE exists already`);
    await svc.post(`/${path}`, { name: 'edge' });
    expect((await svc.put(`/${path}/edge`, { name: 'core' })).status).toBe(409);
    expect((await svc.get(`/${path}`)).body.data).toHaveLength(2);
  });

  it('rejects a missing or blank name', async () => {
    const missing = await svc.post(`/${path}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(`${resource} name is required (name)`);
    expect((await svc.post(`/${path}`, { name: '' })).body.error.message).toBe(
      'name must not be empty',
    );
  });
});

describe('owners', () => {
  it.each(['not-an-email', 'a@', '@b.c', 'a b@c.d'])('rejects the email %s', async (email) => {
    const { status, body } = await svc.post('/owners', { name: 'x', email });
    expect(status).toBe(400);
    expect(body.error.message).toBe('email has an invalid format (expected email)');
    expect((await svc.get('/owners')).body.data).toEqual([]);
  });
});
