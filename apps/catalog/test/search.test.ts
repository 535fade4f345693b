import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);
beforeEach(async () => {
  await svc.service('pay', { description: 'Takes money' });
  await svc.service('Payments-API', { tags: ['http'] });
  await svc.service('gateway-payouts');
  await svc.service('ledger', { tags: ['PAY'] });
  await svc.service('invoices', { tags: ['payroll'] });
  await svc.service('mailer', { description: 'Sends the pay slips' });
  await svc.service('unrelated', { description: 'Nothing here', tags: ['misc'] });
});

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
      kind: 'service',
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

  it('treats %, _ and \\ as text in longer words, which are LIKE patterns', async () => {
    await svc.service('discount-50%');
    await svc.service('discount-500');
    await svc.service('a_b-service');
    await svc.service('axb-service');
    await svc.service('a\\b-service');
    await svc.service('ab-service');
    const names = async (query: string) =>
      (await search(query)).map((h: { name: string }) => h.name);
    expect(await names('?q=50%25')).toEqual(['discount-50%']);
    expect(await names('?q=a_b')).toEqual(['a_b-service']);
    expect(await names('?q=a%5Cb')).toEqual(['a\\b-service']);
  });

  it('finds words under 3 characters, alone or beside longer ones', async () => {
    expect(await search('?q=sl%20pay')).toEqual([
      expect.objectContaining({ name: 'mailer', match: 'words' }),
    ]);
    const hits = await search('?q=ay');
    expect(hits.map((h: { name: string; match: string }) => `${h.name}:${h.match}`)).toEqual([
      'gateway-payouts:name-contains',
      'pay:name-contains',
      'Payments-API:name-contains',
      'invoices:tag-contains',
      'ledger:tag-contains',
      'mailer:description',
    ]);
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

describe('GET /search with several words and every kind', () => {
  const hits = async (query: string) =>
    (await search(query)).map(
      (h: { kind: string; name: string; match: string }) => `${h.kind}:${h.name}:${h.match}`,
    );

  beforeEach(async () => {
    await svc.service('wayback-archive', { description: 'Snapshots of the web' });
    await svc.service('archive-index', { tags: ['wayback'] });
    await svc.service('crawler', { description: 'Feeds the archive of the wayback machine' });
    await svc.service('wayback archive', { description: 'The name is the phrase' });
    await svc.post('/systems', {
      name: 'archives',
      description: 'Everything wayback',
      tags: ['web'],
    });
    await svc.post('/owners', { name: 'wayback-team', team: 'Archive crew' });
    await svc.post('/apis', { name: 'archive-api', type: 'graphql', tags: ['wayback'] });
  });

  it('matches every word in any order: both orders find the same records', async () => {
    const forward = await hits('?q=archive%20wayback');
    const backward = await hits('?q=wayback%20%20archive');
    const set = (list: string[]) => list.map((h) => h.split(':').slice(0, 2).join(':')).sort();
    expect(set(forward)).toEqual(set(backward));
    expect(set(forward)).toEqual(
      [
        'service:wayback-archive',
        'service:archive-index',
        'service:crawler',
        'service:wayback archive',
        'system:archives',
        'owner:wayback-team',
        'api:archive-api',
      ].sort(),
    );
    // The phrase as typed ranks first, then every word in the name, then elsewhere.
    expect(backward).toEqual([
      'service:wayback archive:name',
      'service:wayback-archive:name-words',
      'api:archive-api:words',
      'service:archive-index:words',
      'system:archives:words',
      'service:crawler:words',
      'owner:wayback-team:words',
    ]);
  });

  it('needs every word', async () => {
    expect(await hits('?q=wayback%20zebra')).toEqual([]);
  });

  it('searches systems, owners (name, email, team) and APIs (name, tags, type)', async () => {
    expect(await hits('?q=crew')).toEqual(['owner:wayback-team:description']);
    expect(await hits('?q=archives')).toEqual(['system:archives:name']);
    expect(await hits('?q=graphql')).toEqual(['api:archive-api:tag']);
    expect(await hits('?q=archive&kind=api')).toEqual(['api:archive-api:name-prefix']);
    const [system] = await search('?q=archives');
    expect(system).toEqual({
      id: expect.any(String),
      name: 'archives',
      description: 'Everything wayback',
      tags: ['web'],
      kind: 'system',
      match: 'name',
    });
    const [team] = await search('?q=wayback-team');
    expect(team).toMatchObject({ kind: 'owner', description: null, tags: [], match: 'name' });
    expect((await svc.get('/search?q=x&kind=robot')).status).toBe(400);
  });
});
