import { jsonApi, serviceUnderTest, useService } from '@platform/testing';
import { jsonb } from '@platform/db';
import type { BillingDatabase } from '../src/database';
import { billing } from '../src/index';
import { billingUnderTest } from './helpers';

const svc = useService(billingUnderTest);

describe('items', () => {
  it('records an item in integer cents with a 12-character id', async () => {
    const { status, body } = await svc.post('/items', {
      name: 'GPU hours',
      amount: 123456,
      currency: 'eur',
      provider: 'openai',
      providerRef: 'cost-1',
      tags: ['ml', 'ml', 'gpu'],
      description: 'Training',
      recurring: true,
      period: 'monthly',
      date: '2026-03-04',
      category: 'compute',
      service: 'inference',
      stageApp: 'app1',
      author: 'ann',
    });
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      name: 'GPU hours',
      amount: 123456,
      currency: 'EUR',
      provider: 'openai',
      providerRef: 'cost-1',
      tags: ['ml', 'gpu'],
      description: 'Training',
      recurring: true,
      period: 'monthly',
      date: '2026-03-04T00:00:00.000Z',
      category: 'compute',
      service: 'inference',
      stageApp: 'app1',
      author: 'ann',
      exactAmount: null,
      dimensions: {},
      catalogService: null,
      catalogSystem: null,
      catalogOwner: null,
      createdBy: null,
      team: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await svc.get(`/items/${body.data.id}`)).body.data).toEqual(body.data);
  });

  it('defaults currency to BILLING_CURRENCY and the date to now', async () => {
    const other = await billingUnderTest({ BILLING_CURRENCY: 'gbp' });
    try {
      const { body } = await other.post('/items', { name: 'x', amount: 1 });
      expect(body.data).toMatchObject({
        currency: 'GBP',
        recurring: false,
        period: null,
        tags: [],
      });
      expect(Date.now() - Date.parse(body.data.date)).toBeLessThan(60_000);
    } finally {
      await other.close();
    }
  });

  it.each([
    [{ name: 'x' }, 'Amount is required (amount)'],
    [{ name: 'x', amount: 12.5 }, 'amount must be an integer'],
    [{ name: 'x', amount: '1250' }, 'amount must be an integer'],
    [{ name: 'x', amount: 2 ** 60 }, 'amount must be at most 9007199254740991'],
    [{ amount: 1 }, 'Name is required (name)'],
    [{ name: 'x', amount: 1, currency: 'EURO' }, 'currency has an invalid format'],
    [{ name: 'x', amount: 1, recurring: true }, 'period is required when recurring is true'],
    [
      { name: 'x', amount: 1, period: 'hourly' },
      'period must be one of: daily, weekly, monthly, quarterly, yearly',
    ],
    [{ name: 'x', amount: 1, date: 'soon' }, 'date has an invalid format'],
    [{ name: 'x', amount: 1, tags: 'a,b' }, 'tags must be an array'],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/items', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/items')).body.data).toEqual([]);
  });

  it('keeps (provider, providerRef) unique and finds an item by it', async () => {
    const item = await svc.item({ provider: 'openai', providerRef: 'r1' });
    const dup = await svc.post('/items', {
      name: 'y',
      amount: 2,
      provider: 'openai',
      providerRef: 'r1',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('An item from openai with providerRef r1 exists already');
    await svc.item({ provider: 'anthropic', providerRef: 'r1' });
    expect(
      (await svc.get('/items/by-provider-ref?provider=openai&providerRef=r1')).body.data.id,
    ).toBe(item.id);
    const missing = await svc.get('/items/by-provider-ref?provider=openai&providerRef=r9');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Item not found: openai/r9');
    expect((await svc.get('/items/by-provider-ref?provider=openai')).body.error.message).toBe(
      'ProviderRef is required (providerRef)',
    );
  });

  it('updates the fields sent, validating as a create does', async () => {
    const item = await svc.item({ name: 'a', amount: 100, tags: ['x'] });
    const updated = await svc.put(`/items/${item.id}`, { amount: 250, description: 'more' });
    expect(updated.body.data).toMatchObject({
      name: 'a',
      amount: 250,
      description: 'more',
      tags: ['x'],
    });
    expect((await svc.put(`/items/${item.id}`, { amount: 2.5 })).body.error.message).toBe(
      'amount must be an integer',
    );
    expect((await svc.put(`/items/${item.id}`, { recurring: true })).body.error.message).toBe(
      'period is required when recurring is true',
    );
    expect(
      (await svc.put(`/items/${item.id}`, { recurring: true, period: 'yearly' })).body.data,
    ).toMatchObject({
      recurring: true,
      period: 'yearly',
    });
    await svc.item({ provider: 'p', providerRef: 'taken' });
    expect(
      (await svc.put(`/items/${item.id}`, { provider: 'p', providerRef: 'taken' })).status,
    ).toBe(409);
    expect((await svc.get(`/items/${item.id}`)).body.data.amount).toBe(250);
    expect((await svc.put('/items/nope', { amount: 1 })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Item not found: nope',
    });
  });

  it('deletes', async () => {
    const item = await svc.item({});
    expect((await svc.del(`/items/${item.id}`)).body.data.id).toBe(item.id);
    expect((await svc.get(`/items/${item.id}`)).status).toBe(404);
    expect((await svc.del(`/items/${item.id}`)).status).toBe(404);
  });

  it('filters by every field of the spec, newest first, with paging', async () => {
    await svc.item({
      name: 'a',
      date: '2026-01-01',
      category: 'compute',
      provider: 'openai',
      tags: ['ml', 'gpu'],
    });
    await svc.item({
      name: 'b',
      date: '2026-01-02',
      category: 'storage',
      service: 'git',
      recurring: true,
      period: 'monthly',
    });
    await svc.item({
      name: 'c',
      date: '2026-01-03',
      stageApp: 'app1',
      author: 'ann',
      tags: ['ml'],
    });
    const names = async (q: string) =>
      (await svc.get(`/items${q}`)).body.data.map((i: { name: string }) => i.name);
    expect(await names('')).toEqual(['c', 'b', 'a']);
    expect(await names('?category=compute')).toEqual(['a']);
    expect(await names('?provider=openai')).toEqual(['a']);
    expect(await names('?service=git')).toEqual(['b']);
    expect(await names('?recurring=true')).toEqual(['b']);
    expect(await names('?recurring=false')).toEqual(['c', 'a']);
    expect(await names('?tags=ml')).toEqual(['c', 'a']);
    expect(await names('?tags=ml,gpu')).toEqual(['a']);
    expect(await names('?stageApp=app1&author=ann')).toEqual(['c']);
    expect(await names('?from=2026-01-02&to=2026-01-02')).toEqual(['b']);
    expect(await names('?limit=1&offset=1')).toEqual(['b']);
    expect((await svc.get('/items?recurring=maybe')).body.error.message).toBe(
      'recurring must be true or false',
    );
  });
});

describe('categories', () => {
  it('creates, lists, gets by id or name, renames (items follow) and deletes', async () => {
    const created = await svc.post('/categories', {
      name: 'Compute',
      description: 'CPUs',
      color: '#FF8800',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Compute', color: '#ff8800' });
    const { id } = created.body.data;
    expect((await svc.post('/categories', { name: 'compute' })).status).toBe(409);
    expect((await svc.post('/categories', { name: 'x', color: 'orange' })).body.error.message).toBe(
      'color has an invalid format',
    );
    expect((await svc.get('/categories/COMPUTE')).body.data.id).toBe(id);
    const item = await svc.item({ category: 'Compute' });
    expect((await svc.put(`/categories/${id}`, { name: 'Cloud' })).body.data.name).toBe('Cloud');
    expect((await svc.get(`/items/${item.id}`)).body.data.category).toBe('Cloud');
    await svc.post('/categories', { name: 'Other' });
    expect((await svc.put(`/categories/${id}`, { name: 'other' })).status).toBe(409);
    expect((await svc.get('/categories')).body.data.map((c: { name: string }) => c.name)).toEqual([
      'Cloud',
      'Other',
    ]);
    expect((await svc.del(`/categories/${id}`)).body.data.name).toBe('Cloud');
    expect((await svc.get(`/categories/${id}`)).status).toBe(404);
  });
});

describe('lists cost a constant number of queries', () => {
  it('whatever the number of rows on the page', async () => {
    // No polling for jobs: its background queries would be counted too.
    const other = await serviceUnderTest(billing, { jobs: false });
    try {
      const api = jsonApi(other.app, billing.prefix);
      const tables = other.db.schema<BillingDatabase>(billing.name);
      const add = async (from: number, to: number) => {
        const numbers = Array.from({ length: to - from }, (_, i) => from + i);
        await tables
          .insertInto('items')
          .values(
            numbers.map((n) => ({
              id: `item${String(n).padStart(8, '0')}`,
              name: `gpu ${n}`,
              amount: n,
              currency: 'USD',
              tags: jsonb(['ml', `t${n}`]),
              category: 'compute',
              date: new Date(Date.UTC(2026, 0, 1) + n * 60_000),
            })),
          )
          .execute();
        await tables
          .insertInto('categories')
          .values(numbers.map((n) => ({ id: `cat${n}`, name: `category ${n}` })))
          .execute();
        await tables
          .insertInto('sync_jobs')
          .values(numbers.map((n) => ({ id: `job${n}`, provider: 'focus', status: 'completed' })))
          .execute();
      };
      const lists = ['/items', '/search?q=gpu', '/categories', '/sync/jobs'].map(
        (url) => `${url}${url.includes('?') ? '&' : '?'}limit=1000`,
      );
      const cost = async (url: string, rows: number) => {
        other.queries.reset();
        const res = await api.get(url);
        expect(res.body.data).toHaveLength(rows);
        return other.queries.count();
      };
      await add(0, 1);
      const one: number[] = [];
      for (const url of lists) one.push(await cost(url, 1));
      await add(1, 250);
      for (const [i, url] of lists.entries()) expect(await cost(url, 250)).toBe(one[i]);
      expect(one).toEqual([1, 1, 1, 1]);
    } finally {
      await other.close();
    }
  });
});
