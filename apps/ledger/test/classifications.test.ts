import { useService } from '@platform/testing';
import { ledgerUnderTest } from './helpers';

const svc = useService(ledgerUnderTest);

const classify = (payload: object) =>
  svc.post('/classifications', { justification: 'Needed for invoices', ...payload });

describe('field classifications', () => {
  it('creates one with serviceId and reads it back', async () => {
    const { status, body } = await classify({
      serviceId: 'billing',
      field: 'customer.email',
      level: 'pii',
      ppiCategory: 'contact',
    });
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      serviceId: 'billing',
      service: 'billing',
      field: 'customer.email',
      level: 'pii',
      justification: 'Needed for invoices',
      ppiCategory: 'contact',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await svc.get(`/classifications/${body.data.id}`)).body.data).toEqual(body.data);
  });

  it('accepts service instead of serviceId', async () => {
    const { body } = await classify({ service: 'catalog', field: 'owner.name', level: 'internal' });
    expect(body.data).toMatchObject({
      serviceId: 'catalog',
      service: 'catalog',
      ppiCategory: null,
    });
  });

  it('answers 409 for a second classification of the same service and field, naming the first', async () => {
    const first = (
      await classify({ serviceId: 'billing', field: 'card.number', level: 'restricted' })
    ).body.data;
    const { status, body } = await classify({
      service: 'billing',
      field: 'card.number',
      level: 'pii',
    });
    expect(status).toBe(409);
    expect(body.error).toEqual({
      code: 'CONFLICT',
      message: `Field card.number of service billing is classified already (${first.id})`,
    });
    // The same field of another service is another classification.
    expect(
      (await classify({ serviceId: 'ledger', field: 'card.number', level: 'pii' })).status,
    ).toBe(201);
    expect((await svc.get('/classifications?service=billing')).body.data).toEqual([first]);
  });

  it('lists by service (and level), ordered by field, with paging', async () => {
    for (const [serviceId, field, level] of [
      ['billing', 'z.last', 'public'],
      ['billing', 'a.first', 'pii'],
      ['billing', 'm.middle', 'pii'],
      ['catalog', 'x', 'internal'],
    ])
      await classify({ serviceId, field, level });
    const fields = async (query: string) =>
      (await svc.get(`/classifications${query}`)).body.data.map((c: { field: string }) => c.field);
    expect(await fields('?service=billing')).toEqual(['a.first', 'm.middle', 'z.last']);
    expect(await fields('?serviceId=billing&level=pii')).toEqual(['a.first', 'm.middle']);
    expect(await fields('?service=billing&limit=1&offset=1')).toEqual(['m.middle']);
    expect(await fields('')).toEqual(['a.first', 'm.middle', 'z.last', 'x']);
    expect(await fields('?service=nobody')).toEqual([]);
  });

  it('deletes one, after which its field can be classified again', async () => {
    const { id } = (await classify({ serviceId: 'billing', field: 'f', level: 'pii' })).body.data;
    const { status, body } = await svc.del(`/classifications/${id}`);
    expect(status).toBe(200);
    expect(body.data.id).toBe(id);
    expect((await svc.get(`/classifications/${id}`)).status).toBe(404);
    expect((await svc.del(`/classifications/${id}`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: `Classification not found: ${id}`,
    });
    expect((await classify({ serviceId: 'billing', field: 'f', level: 'public' })).status).toBe(
      201,
    );
  });

  it.each([
    [
      { serviceId: 'b', field: 'f', level: 'secret' },
      'level must be one of: public, internal, confidential, pii, restricted',
    ],
    [{ serviceId: 'b', field: 'f' }, 'Level is required (level)'],
    [{ serviceId: 'b', level: 'pii' }, 'Field is required (field)'],
    [{ field: 'f', level: 'pii' }, 'serviceId (or service) is required'],
    [
      { serviceId: 'a', service: 'b', field: 'f', level: 'pii' },
      'serviceId and service name different services; send one of them',
    ],
    [{ serviceId: 'b', field: 'a..b', level: 'pii' }, 'field has an invalid format'],
    [{ serviceId: 'b', field: 'has space', level: 'pii' }, 'field has an invalid format'],
    [
      { serviceId: 'b', field: 'f', level: 'pii', justification: '' },
      'justification must not be empty',
    ],
    [
      { serviceId: 'b', field: 'f', level: 'PII' },
      'level must be one of: public, internal, confidential, pii, restricted',
    ],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await classify(payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/classifications')).body.data).toEqual([]);
  });

  it('requires a justification', async () => {
    const { status, body } = await svc.post('/classifications', {
      serviceId: 'b',
      field: 'f',
      level: 'pii',
    });
    expect(status).toBe(400);
    expect(body.error.message).toBe('Justification is required (justification)');
  });

  it('accepts dotted paths with wildcards', async () => {
    for (const field of ['items.*.price', 'user.address.zip', '$meta', 'a_b-c.d1'])
      expect((await classify({ serviceId: 's', field, level: 'internal' })).status).toBe(201);
  });

  it('rejects an unknown level in the list filter', async () => {
    const { status, body } = await svc.get('/classifications?level=top');
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      'level must be one of: public, internal, confidential, pii, restricted',
    );
  });
});
