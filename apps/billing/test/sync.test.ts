import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@platform/db';
import { billingUnderTest, type Billing } from './helpers';

const TOKEN = 'sk-secret-token-1234567890';

/** A local HTTP server answering with `handle`; records each request. */
async function provider(
  handle: (req: IncomingMessage, url: URL) => { status: number; body: unknown },
) {
  const seen: Array<{ url: URL; headers: IncomingMessage['headers'] }> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ url, headers: req.headers });
    const { status, body } = handle(req, url);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** OpenAI's organization costs wire format, two pages. */
const openaiPages = (cost: number) => (req: IncomingMessage, url: URL) => {
  if (req.headers.authorization !== `Bearer ${TOKEN}`)
    return {
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    };
  const page = url.searchParams.get('page');
  const bucket = (start: number, results: unknown[]) => ({
    object: 'bucket',
    start_time: start,
    end_time: start + 86400,
    results,
  });
  const result = (value: number, lineItem: string) => ({
    object: 'organization.costs.result',
    amount: { value, currency: 'usd' },
    line_item: lineItem,
    project_id: 'proj_1',
  });
  return page === null
    ? {
        status: 200,
        body: {
          object: 'page',
          data: [
            bucket(1767225600, [result(cost, 'gpt-4o, input'), result(0.06, 'gpt-4o, output')]),
          ],
          has_more: true,
          next_page: 'page_2',
        },
      }
    : {
        status: 200,
        body: {
          object: 'page',
          data: [bucket(1767312000, [result(1.1, 'gpt-4o, input')])],
          has_more: false,
          next_page: null,
        },
      };
};

let svc: Billing;
let servers: Array<{ close(): Promise<void> }>;
beforeEach(() => {
  servers = [];
});
afterEach(async () => {
  await svc.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function start(env: Record<string, string>) {
  svc = await billingUnderTest(env);
}
async function finished(id: string) {
  for (;;) {
    const job = (await svc.get(`/sync/jobs/${id}`)).body.data;
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const sync = async (body: object) => {
  const res = await svc.post('/sync', body);
  expect(res.status).toBe(202);
  expect(res.body.data.status).toBe('running');
  return finished(res.body.data.id);
};

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

describe('sync from a FOCUS CSV', () => {
  const csv = [
    'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName,ResourceId,SkuId,ChargeDescription',
    '12.34,USD,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,AWS,Amazon EC2,i-1,sku1,Compute',
    '0.015,usd,2026-01-02T00:00:00Z,2026-01-03T00:00:00Z,AWS,Amazon S3,b-1,sku2,Storage',
    '99,USD,2025-06-01T00:00:00Z,2025-06-02T00:00:00Z,AWS,Amazon EC2,i-2,sku1,Out of range',
  ].join('\n');

  it('imports the rows in the range, and updates them on a repeat', async () => {
    await start({});
    expect(
      await sync({ provider: 'focus', csv, from: '2026-01-01', to: '2026-01-31' }),
    ).toMatchObject({ status: 'completed', itemsCreated: 2 });
    const items = (await svc.get('/items?provider=focus')).body.data;
    expect(
      items.map((i: { name: string; amount: number }) => `${i.name}:${i.amount}`).sort(),
    ).toEqual(['Amazon EC2:1234', 'Amazon S3:2']);
    expect(
      await sync({ provider: 'focus', csv, from: '2026-01-01', to: '2026-01-31' }),
    ).toMatchObject({ itemsCreated: 0, itemsUpdated: 2 });
  });

  it('fails the job on a CSV without the FOCUS columns', async () => {
    await start({});
    expect(
      await sync({ provider: 'focus', csv: 'a,b\n1,2', from: '2026-01-01', to: '2026-01-31' }),
    ).toMatchObject({
      status: 'failed',
      error: 'The FOCUS CSV has no BilledCost column',
    });
  });
});

describe('sync requests', () => {
  beforeEach(() => start({}));

  it.each([
    [
      { provider: 'aws', from: '2026-01-01', to: '2026-01-02' },
      'Unknown provider aws; adapters: openai, anthropic, focus',
    ],
    [{ provider: 'openai', from: '2026-01-01', to: '2026-01-02' }, 'openai needs a token'],
    [
      { provider: 'openai', token: 't', from: '2026-01-05', to: '2026-01-02' },
      'from must not be after to',
    ],
    [{ provider: 'openai', token: 't', to: '2026-01-02' }, 'from is required'],
  ])('rejects %j without starting a job', async (body, message) => {
    const res = await svc.post('/sync', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect((await svc.get('/sync/jobs')).body.data).toEqual([]);
  });

  it('lists the adapters and answers 404 for an unknown job', async () => {
    expect(
      (await svc.get('/sync/adapters')).body.data.map((a: { name: string }) => a.name),
    ).toEqual(['openai', 'anthropic', 'focus']);
    expect((await svc.get('/sync/jobs/nope')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Sync job not found: nope',
    });
  });
});
