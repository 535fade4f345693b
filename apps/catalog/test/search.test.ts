import { catalogUnderTest, type Catalog } from './helpers';

let svc: Catalog;
beforeEach(async () => {
  svc = await catalogUnderTest();
  await svc.service('pay', { description: 'Takes money' });
  await svc.service('Payments-API', { tags: ['http'] });
  await svc.service('gateway-payouts');
  await svc.service('ledger', { tags: ['PAY'] });
  await svc.service('invoices', { tags: ['payroll'] });
  await svc.service('mailer', { description: 'Sends the pay slips' });
  await svc.service('unrelated', { description: 'Nothing here', tags: ['misc'] });
});
afterEach(() => svc.close());

const search = async (query: string) => (await svc.get(`/search${query}`)).body.data;

describe('GET /search', () => {
  it('ranks exact name, name prefix, name contains, tag, tag contains, description', async () => {
    const hits = await search('?q=PAY');
    expect(hits.map((h: { name: string; match: string }) => `${h.name}:${h.match}`)).toEqual([
      'pay:name',
      'Payments-API:name-prefix',
      'gateway-payouts:name-contains',
      'ledger:tag',
      'invoices:tag-contains',
      'mailer:description',
    ]);
    expect(hits[0]).toEqual({
      id: expect.any(String),
      name: 'pay',
      description: 'Takes money',
      tags: [],
      match: 'name',
    });
  });

  it('limits the hits', async () => {
    expect((await search('?q=pay&limit=2')).map((h: { name: string }) => h.name)).toEqual([
      'pay',
      'Payments-API',
    ]);
  });

  it('treats LIKE wildcards as text', async () => {
    expect(await search('?q=%25')).toEqual([]);
    expect(await search('?q=_')).toEqual([]);
  });

  it('finds nothing for an unknown term', async () => {
    expect(await search('?q=zebra')).toEqual([]);
  });

  it.each([
    ['', 'The search term is required (q)'],
    ['?q=', 'q (the search term) must not be empty'],
    ['?q=%20%20', 'q (the search term) must not be empty'],
    ['?q=a&limit=0', 'limit must be at least 1'],
  ])('rejects %s', async (query, message) => {
    const res = await svc.get(`/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(message),
    });
  });
});
