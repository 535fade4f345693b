import { sql } from '@platform/db';
import { openaiPages, provider, servers, start, svc, sync, TOKEN } from './sync-setup';

describe('sync from OpenAI', () => {
  it('follows the pages and converts dollars to cents exactly', async () => {
    const api = await provider(openaiPages(0.29));
    servers.push(api);
    await start({ BILLING_OPENAI_URL: api.url });
    const job = await sync({
      provider: 'openai',
      token: TOKEN,
      from: '2026-01-01',
      to: '2026-01-02',
      projectId: 'proj_1',
    });
    expect(job).toMatchObject({
      provider: 'openai',
      status: 'completed',
      itemsCreated: 3,
      itemsUpdated: 0,
      error: null,
    });
    expect(api.seen[0].url.pathname).toBe('/v1/organization/costs');
    expect(api.seen[0].url.searchParams.get('start_time')).toBe('1767225600');
    expect(api.seen[0].url.searchParams.get('project_ids')).toBe('proj_1');
    expect(api.seen[1].url.searchParams.get('page')).toBe('page_2');
    const items = (await svc.get('/items?provider=openai')).body.data;
    // 0.29 * 100 is 28.999999999999996 in floating point; the adapter gives 29.
    expect(
      items.map((i: { amount: number }) => i.amount).sort((a: number, b: number) => a - b),
    ).toEqual([6, 29, 110]);
    expect(items[0]).toMatchObject({ currency: 'USD', provider: 'openai', tags: ['synced'] });
  });

  it('updates rather than duplicates on a repeated sync', async () => {
    let cost = 0.29;
    const api = await provider((req, url) => openaiPages(cost)(req, url));
    servers.push(api);
    await start({ BILLING_OPENAI_URL: api.url });
    await sync({ provider: 'openai', token: TOKEN, from: '2026-01-01', to: '2026-01-02' });
    cost = 0.57;
    const job = await sync({
      provider: 'openai',
      token: TOKEN,
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 0, itemsUpdated: 3 });
    const amounts = (await svc.get('/items?provider=openai')).body.data.map(
      (i: { amount: number }) => i.amount,
    );
    expect(amounts.sort((a: number, b: number) => a - b)).toEqual([6, 57, 110]);
    expect((await svc.get('/sync/jobs?provider=openai')).body.data).toHaveLength(2);
  });

  it('fails the job on a 401 and on a 500, storing nothing and never the token', async () => {
    const api = await provider((_req, url) =>
      url.searchParams.get('project_ids') === 'boom'
        ? { status: 500, body: { error: 'oops' } }
        : { status: 401, body: { error: 'bad key' } },
    );
    servers.push(api);
    await start({ BILLING_OPENAI_URL: api.url });
    const refused = await sync({
      provider: 'openai',
      token: 'wrong',
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(refused).toMatchObject({
      status: 'failed',
      error: 'openai refused the token (HTTP 401)',
      itemsCreated: 0,
    });
    const broken = await sync({
      provider: 'openai',
      token: TOKEN,
      from: '2026-01-01',
      to: '2026-01-02',
      projectId: 'boom',
    });
    expect(broken).toMatchObject({ status: 'failed', error: 'openai answered HTTP 500' });
    expect((await svc.get('/items')).body.data).toEqual([]);
    const { rows } = await sql<{
      dump: string;
    }>`select concat_ws(' ', (select string_agg(t::text, ' ') from billing.sync_jobs t), (select string_agg(i::text, ' ') from billing.items i)) as dump`.execute(
      svc.db.kysely,
    );
    expect(rows[0].dump ?? '').not.toContain(TOKEN);
    expect(rows[0].dump ?? '').not.toContain('wrong');
  });
});

describe('sync from Anthropic', () => {
  it('reads decimal-string cents, follows pages, and sends the admin key headers', async () => {
    const api = await provider((req, url) => {
      if (req.headers['x-api-key'] !== TOKEN)
        return { status: 401, body: { type: 'error', error: { type: 'authentication_error' } } };
      if (url.searchParams.get('workspace_ids[]') === 'boom')
        return { status: 500, body: { type: 'error', error: { type: 'api_error' } } };
      const bucket = (day: string, results: unknown[]) => ({
        starting_at: `${day}T00:00:00Z`,
        ending_at: `${day}T23:59:59Z`,
        results,
      });
      const result = (amount: string, description: string) => ({
        amount,
        currency: 'USD',
        description,
        workspace_id: 'wrkspc_1',
        cost_type: 'tokens',
      });
      return url.searchParams.get('page') === null
        ? {
            status: 200,
            body: {
              data: [
                bucket('2026-01-01', [
                  result('123.45', 'Claude Sonnet usage'),
                  result('0.5', 'Web search'),
                ]),
              ],
              has_more: true,
              next_page: 'page_abc',
            },
          }
        : {
            status: 200,
            body: {
              data: [bucket('2026-01-02', [result('1000', 'Claude Sonnet usage')])],
              has_more: false,
              next_page: null,
            },
          };
    });
    servers.push(api);
    await start({ BILLING_ANTHROPIC_URL: api.url });
    const job = await sync({
      provider: 'anthropic',
      token: TOKEN,
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 3 });
    expect(api.seen[0].headers['anthropic-version']).toBe('2023-06-01');
    expect(api.seen[0].url.pathname).toBe('/v1/organizations/cost_report');
    expect(api.seen[1].url.searchParams.get('page')).toBe('page_abc');
    const amounts = (await svc.get('/items?provider=anthropic')).body.data.map(
      (i: { amount: number }) => i.amount,
    );
    expect(amounts.sort((a: number, b: number) => a - b)).toEqual([1, 123, 1000]);
    const refused = await sync({
      provider: 'anthropic',
      token: 'nope',
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(refused).toMatchObject({
      status: 'failed',
      error: 'anthropic refused the token (HTTP 401)',
    });
    const broken = await sync({
      provider: 'anthropic',
      token: TOKEN,
      from: '2026-01-01',
      to: '2026-01-02',
      projectId: 'boom',
    });
    expect(broken).toMatchObject({ status: 'failed', error: 'anthropic answered HTTP 500' });
    expect((await svc.get('/items?provider=anthropic')).body.data).toHaveLength(3);
  });
});
