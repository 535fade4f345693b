import { CALLERS, keyCaller, type Json } from '@platform/testing';
import { budgetWorld, type BudgetWorld } from './budgets-world';

// Budgets (issue 39, item 4): the resource, with authentication on. Any signed-in caller reads;
// members make them; their creator, their team and admins change or delete them. Bad input is a
// 400 naming the field and changes nothing; the channel is checked with communication, and must
// be one billing is registered on (admin configuration); the figures are stored by evaluations.

let w: BudgetWorld;
let channelId: string;
const { admin, owner, teamMate, stranger, viewer } = CALLERS;
beforeAll(async () => {
  w = await budgetWorld();
  channelId = (await w.channel('finops')).id;
}, 30_000);
afterAll(() => w?.close());

const valid = {
  name: 'Payments',
  amount: 50_000,
  period: 'month',
  filter: { service: 'payments-api', owner: 'payments' },
  thresholds: [80, 100],
  channel: 'finops',
};
const names = async () =>
  ((await w.billing(admin).get('/budgets')).body.data as Json[]).map((b) => b.name);

describe('the budget resource', () => {
  let id: string;
  it('creates a budget with the channel resolved, its figures and its owner', async () => {
    const made = await w.billing(owner).post('/budgets', { ...valid, team: 'payments' });
    expect(made.status).toBe(403); // the owner is not in team payments
    const ok = await w.billing(teamMate).post('/budgets', { ...valid, team: 'payments' });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      name: 'Payments',
      amount: 50_000,
      currency: 'USD',
      period: 'month',
      filter: { service: 'payments-api', owner: 'payments', provider: null, tag: null },
      thresholds: [80, 100],
      channel: channelId,
      channelName: 'finops',
      spent: 0,
      forecast: 0,
      status: 'ok',
      // Evaluated at once (inline): its figures are those of now.
      evaluatedAt: expect.any(String),
      alerts: [],
      createdBy: 'mate@example.com',
      team: 'payments',
    });
    expect(Date.now() - Date.parse(ok.body.data.evaluatedAt)).toBeLessThan(10_000);
    id = ok.body.data.id;
    // Defaults: thresholds 80 and 100, no filter (all spend).
    const plain = await w.billing(owner).post('/budgets', {
      name: 'everything',
      amount: 1,
      period: 'year',
      channel: channelId,
    });
    expect(plain.body.data).toMatchObject({
      thresholds: [80, 100],
      createdBy: 'owner@example.com',
    });
    expect(plain.body.data.filter).toEqual({
      owner: null,
      service: null,
      provider: null,
      tag: null,
    });
  });

  it('gets, lists with filters and pages, updates and deletes by id or name', async () => {
    expect((await w.billing(viewer).get(`/budgets/${id}`)).body.data.name).toBe('Payments');
    expect((await w.billing(viewer).get('/budgets/PAYMENTS')).body.data.id).toBe(id);
    expect((await w.billing(viewer).get('/budgets/nope')).status).toBe(404);
    const list = async (query: string) =>
      ((await w.billing(viewer).get(`/budgets${query}`)).body.data as Json[]).map((b) => b.name);
    expect(await list('')).toEqual(['everything', 'Payments']);
    expect(await list('?service=PAYMENTS-API')).toEqual(['Payments']);
    expect(await list('?owner=Payments')).toEqual(['Payments']);
    expect(await list('?service=other')).toEqual([]);
    expect(await list('?limit=1&offset=1')).toEqual(['Payments']);
    // By its catalog id too, once billing's copy of the catalog knows the service.
    await w.db
      .insertInto('catalog_services')
      .values({
        id: 'svc1',
        name: 'payments-api',
        system: null,
        system_name: null,
        owner: 'payments',
      })
      .execute();
    expect(await list('?service=svc1')).toEqual(['Payments']);

    const put = await w.billing(owner).put('/budgets/payments', { amount: 60_000 });
    expect(put.status).toBe(403);
    const changed = await w.billing(teamMate).put('/budgets/payments', {
      amount: 60_000,
      thresholds: [100, 50],
      filter: { provider: 'AWS' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      amount: 60_000,
      thresholds: [50, 100],
      filter: { provider: 'aws', service: null, owner: null },
      channel: channelId,
    });
    const taken = await w.billing(teamMate).put('/budgets/payments', { name: 'Everything' });
    expect([taken.status, taken.body.error.message]).toEqual([
      409,
      'A budget named Everything exists already',
    ]);
    expect((await w.billing(admin).del(`/budgets/${id}`)).status).toBe(200);
    expect(await names()).toEqual(['everything']);
  });
});

describe('figures', () => {
  it('are read from the budget as its last evaluation stored them, with their time', async () => {
    const made = await w.billing(owner).post('/budgets', {
      name: 'stored',
      amount: 1_000,
      period: 'month',
      filter: { provider: 'Stored' },
      channel: 'finops',
    });
    expect(made.body.data).toMatchObject({ filter: { provider: 'stored' }, spent: 0 });
    const today = new Date().toISOString().slice(0, 10);
    const item = { name: 'x', amount: 900, provider: 'STORED', date: today };
    expect((await w.billing(owner).post('/items', item)).status).toBe(201);
    // Reading computes nothing: the figures stay those of the evaluation until the next one.
    const before = (await w.billing(owner).get('/budgets/stored')).body.data;
    expect(before).toMatchObject({ spent: 0, evaluatedAt: made.body.data.evaluatedAt });
    expect((await w.billing(admin).post('/budgets/evaluate')).status).toBe(200);
    const after = (await w.billing(owner).get('/budgets/stored')).body.data;
    expect(after).toMatchObject({ spent: 900, status: 'warning' });
    expect(Date.parse(after.evaluatedAt)).toBeGreaterThan(Date.parse(before.evaluatedAt));
    expect((await w.billing(owner).del('/budgets/stored')).status).toBe(200);
  });
});

describe('channels are admin configuration', () => {
  it('takes a channel billing is registered on; an admin’s budget registers it; else 403', async () => {
    const other = await w.channel('other', false);
    const body = { ...valid, name: 'elsewhere', filter: undefined, channel: 'other' };
    const registered = async () =>
      (
        (await w.comm(admin).get(`/apps/billing/channels?channelId=${other.id}`)).body
          .data as Json[]
      ).length;
    const refused = await w.billing(owner).post('/budgets', body);
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'owner@example.com may not send billing alerts to channel other: it needs the role admin, or the app billing registered on channel other by an admin (POST /api/v1/communication/apps/billing/channels)',
    ]);
    const moved = await w.billing(owner).post('/budgets', { ...body, channel: 'finops' });
    expect(moved.status).toBe(201);
    expect((await w.billing(owner).put('/budgets/elsewhere', { channel: other.id })).status).toBe(
      403,
    );
    expect(await registered()).toBe(0);
    // An admin's budget (or change) registers billing on the channel...
    const byAdmin = await w.billing(admin).put('/budgets/elsewhere', { channel: 'other' });
    expect([byAdmin.status, byAdmin.body.data.channel]).toEqual([200, other.id]);
    expect(await registered()).toBe(1);
    // ...after which members may name it too.
    const mine = await w.billing(owner).post('/budgets', { ...body, name: 'mine' });
    expect([mine.status, mine.body.data.channel]).toEqual([201, other.id]);
    for (const name of ['elsewhere', 'mine'])
      expect((await w.billing(admin).del(`/budgets/${name}`)).status).toBe(200);
  });
});

describe('bad input', () => {
  beforeAll(async () => {
    // Billing's copy of the catalog, as a refresh leaves it: names can be checked.
    await w.db
      .insertInto('catalog_snapshot')
      .values({ id: 'catalog', fetched_at: new Date(), attempted_at: new Date(), error: null })
      .onConflict((oc) => oc.column('id').doUpdateSet({ fetched_at: new Date() }))
      .execute();
  });
  const cases: Array<[string, object, RegExp]> = [
    ['a threshold of 0', { thresholds: [0] }, /thresholds/],
    ['a threshold above 1000', { thresholds: [80, 1001] }, /thresholds/],
    ['a repeated threshold', { thresholds: [80, 80] }, /thresholds/],
    ['no threshold', { thresholds: [] }, /thresholds/],
    ['an unknown period', { period: 'week' }, /period/],
    ['an amount of 0', { amount: 0 }, /amount/],
    ['an amount in dollars', { amount: 12.5 }, /amount/],
    ['an unknown filter', { filter: { region: 'eu' } }, /filter/],
    [
      'an unknown channel',
      { channel: 'nowhere' },
      /^channel: Channel not found: nowhere \(communication\)$/,
    ],
    ['no channel', { channel: undefined }, /channel/],
    [
      'a catalog service billing does not know',
      { filter: { service: 'nope-api' } },
      /^filter\.service: unknown catalog service "nope-api" in billing's copy of the catalog \(The catalog could not be read: it is off; its last copy does not have it\)$/,
    ],
    [
      'an owner of no catalog service',
      { filter: { owner: 'nobody' } },
      /^filter\.owner: no catalog service is owned by "nobody" in billing's copy of the catalog/,
    ],
  ];
  it.each(cases)(
    'refuses %s with a 400 naming the field, storing nothing',
    async (_, change, message) => {
      const before = await names();
      const res = await w.billing(owner).post('/budgets', { ...valid, name: 'bad', ...change });
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      expect(res.body.error.message).toMatch(message);
      expect(await names()).toEqual(before);
      const update = await w.billing(owner).put('/budgets/everything', change);
      if (Object.values(change)[0] !== undefined) expect(update.status).toBe(400);
      expect((await w.billing(owner).get('/budgets/everything')).body.data).toMatchObject({
        amount: 1,
        period: 'year',
        thresholds: [80, 100],
        channel: channelId,
      });
    },
  );
});

describe('access', () => {
  it('lets every signed-in caller read; members create; owner, team and admins change', async () => {
    const readKey = keyCaller(['billing:read']);
    expect((await w.billing(undefined).get('/budgets')).status).toBe(401);
    expect((await w.billing(readKey).get('/budgets/everything')).status).toBe(200);
    for (const [caller, missing] of [
      [viewer, 'the role member (or admin)'],
      [readKey, 'the scope billing:write'],
    ] as const) {
      const res = await w.billing(caller).post('/budgets', { ...valid, name: 'denied' });
      expect([res.status, res.body.error.message]).toEqual([
        403,
        expect.stringMatching(
          new RegExp(
            `may not create billing\\.budget: it needs ${missing.replace(/[()]/g, '\\$&')}$`,
          ),
        ),
      ]);
    }
    const put = await w.billing(stranger).put('/budgets/everything', { amount: 2 });
    expect([put.status, put.body.error.message]).toEqual([
      403,
      'stranger@example.com may not update billing.budget: it needs ownership (it belongs to owner@example.com)',
    ]);
    expect((await w.billing(stranger).del('/budgets/everything')).status).toBe(403);
    expect((await w.billing(viewer).post('/budgets/evaluate')).status).toBe(403);
    expect(await names()).toEqual(['everything']);
    expect((await w.billing(owner).get('/budgets/everything')).body.data.amount).toBe(1);
    expect((await w.billing(owner).del('/budgets/everything')).status).toBe(200);
  });
});
