import Big from 'big.js';
import { CALLERS, useService } from '@platform/testing';
import { dailySpend, spendTotal } from '../src/repositories/spend';
import { FOCUS_CSV, JANUARY, ownersWorld } from './owners-world';

// Allocation rules (issue 39, item 3): shared costs split by fixed shares or in proportion to
// other spend, inside reports and spendTotal / dailySpend, every total still adding up exactly.
// The world of owners-world.ts with two owner rules: RDS (1234) to shared-db, EC2 (300) to search.
// So January is checkout 1000, search 800, shared-db 1234, unmatched 350: 3384 in all.

const w = useService(
  async () => {
    const world = await ownersWorld();
    await world.admin.post('/owner-rules', {
      target: 'shared-db',
      focusColumn: 'ServiceName',
      focusValue: 'Amazon RDS',
    });
    await world.admin.post('/owner-rules', { target: 'search', tag: 'team:search' });
    return world;
  },
  { scope: 'all', timeout: 60_000 },
);
const { teamMate, stranger } = CALLERS;
const january = { from: new Date('2026-01-01'), to: new Date('2026-02-01'), currency: 'USD' };
const exact = async (service?: string, month = january) =>
  new Big(await spendTotal(w.billingDb(), { ...month, service })).toFixed();
const SPLIT = {
  name: 'db split',
  selector: { catalogService: 'shared-db' },
  method: 'fixed',
  shares: [
    { service: 'checkout', percent: 50 },
    { service: 'Search', percent: 33.3 },
    { service: 'shared-db', percent: 16.7 },
  ],
};

describe('allocation by fixed shares', () => {
  it('splits shared-db 50 / 33.3 / 16.7 and keeps every total exact', async () => {
    // A member of payments may not send spend to search-team's service.
    const pushed = await w.as(teamMate).post('/allocations', SPLIT);
    expect(pushed.status).toBe(403);
    expect(pushed.body.error.message).toBe(
      'mate@example.com may not create billing.allocation: it needs membership of team search-team (the owner of catalog service search)',
    );
    const res = await w.admin.post('/allocations', SPLIT);
    expect(res.status).toBe(201);
    expect(res.body.data.shares.map((s: { service: { name: string } }) => s.service.name)).toEqual([
      'checkout',
      'search',
      'shared-db',
    ]);
    // 1234 × 50 % = 617, × 33.3 % = 410.922, × 16.7 % = 206.078.
    expect(await exact('checkout')).toBe('1617');
    expect(await exact('search')).toBe('1210.922');
    expect(await exact('shared-db')).toBe('206.078');
    expect(await exact()).toBe('3384');
    // Rounded rows add up to the total rounded once: 1617 + 1211 + 350 + 206 = 3384.
    expect(await w.breakdown('by=catalogService')).toEqual({
      [w.ids.checkout]: 1617,
      [w.ids.search]: 1211,
      '(unmatched)': 350,
      [w.ids['shared-db']]: 206,
    });
    expect(await w.breakdown('by=owner')).toEqual({
      payments: 1823,
      'search-team': 1211,
      '(unmatched)': 350,
    });
    // By provider the split changes nothing; by day the shares keep the day of the RDS item.
    expect(await w.breakdown('by=provider')).toEqual({ AWS: 1634, '(none)': 1750 });
    const aws = await spendTotal(w.billingDb(), { ...january, provider: 'aws' }); // any case
    expect(new Big(aws).toFixed()).toBe('1634');
    const days = await dailySpend(w.billingDb(), { ...january, service: 'checkout' }, 'service');
    expect(days.map((d) => [d.day, new Big(d.exact).toFixed()])).toEqual([
      ['2026-01-02', '1000'],
      ['2026-01-05', '617'],
    ]);
  });

  it('refuses shares that do not add up to 100, or unknown services, changing nothing', async () => {
    const bad = async (body: object, message: string) => {
      const res = await w.admin.post('/allocations', { name: 'bad', method: 'fixed', ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    };
    const selector = { catalogService: 'shared-db' };
    await bad(
      {
        selector,
        shares: [
          { service: 'checkout', percent: 50 },
          { service: 'search', percent: 40 },
        ],
      },
      'shares: the percentages add up to 90, not 100',
    );
    await bad(
      { selector, shares: [{ service: 'ghost', percent: 100 }] },
      'shares[0].service: unknown catalog service "ghost"',
    );
    await bad(
      { selector: {}, shares: [] },
      'selector needs at least one of catalogService, provider, service, tag',
    );
    await bad(
      { selector, method: 'proportional' },
      'basis: a proportional allocation needs a basis selector',
    );
    expect((await w.admin.get('/allocations')).body.data).toHaveLength(1);
    expect(await exact('checkout')).toBe('1617');
  });

  it("lets only the team of the selector's service and admins change it", async () => {
    const denied = await w.as(stranger).del('/allocations/db%20split');
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('it belongs to team payments');
    const noService = await w.as(teamMate).post('/allocations', {
      name: 'aws',
      selector: { provider: 'AWS' },
      method: 'fixed',
      shares: [{ service: 'checkout', percent: 100 }],
    });
    expect(noService.status).toBe(403);
    expect(noService.body.error.message).toContain('the role admin');
    // Its description is payments' to change; its shares send spend to search-team too.
    const said = await w.as(teamMate).put('/allocations/db%20split', { description: 'RDS' });
    expect(said.status).toBe(200);
    const shares = [
      { service: 'checkout', percent: 10 },
      { service: 'search', percent: 90 },
    ];
    const reshared = await w.as(teamMate).put('/allocations/db%20split', { shares });
    expect(reshared.status).toBe(403);
    expect(reshared.body.error.message).toContain('membership of team search-team');
    expect(await exact('search')).toBe('1210.922');
    expect((await w.as(teamMate).del('/allocations/DB%20SPLIT')).status).toBe(200);
    expect(await exact('checkout')).toBe('1000');
  });

  it('gives the last share the rest, so that shares add up to each item, credits too', async () => {
    // April: RDS $12.345678901238 and a credit of $2. A third of 1234.5678901238 cents has more
    // decimals than PostgreSQL keeps in a quotient: computed each, the thirds miss by 1e-16.
    const csv = [
      FOCUS_CSV.split('\n')[0],
      '12.345678901238,USD,2026-04-05T00:00:00Z,2026-04-06T00:00:00Z,AWS,Amazon RDS,db-4,',
      '-2.00,USD,2026-04-06T00:00:00Z,2026-04-07T00:00:00Z,AWS,Amazon RDS,db-5,',
    ].join('\n');
    await w.importFocus(csv, '2026-04-01', '2026-04-30');
    const april = { from: new Date('2026-04-01'), to: new Date('2026-05-01'), currency: 'USD' };
    expect(await exact('shared-db', april)).toBe('1034.5678901238');
    const thirds = await w.admin.post('/allocations', {
      name: 'thirds',
      selector: { catalogService: 'shared-db' },
      method: 'fixed',
      shares: [
        { service: 'checkout', percent: 33.333333 },
        { service: 'search', percent: 33.333333 },
        { service: 'shared-db', percent: 33.333334 },
      ],
    });
    expect(thirds.status).toBe(201);
    expect(await exact(undefined, april)).toBe('1034.5678901238');
    // 33.333333 % of 1234.5678901238 and of -200 each (within the quotient's rounding), the
    // last share the rest: the three add up to the month exactly.
    const third = new Big('1234.5678901238').minus(200).times('0.33333333');
    const [checkout, search, db] = await Promise.all(
      ['checkout', 'search', 'shared-db'].map((s) => exact(s, april)),
    );
    expect(new Big(checkout).minus(third).abs().lt('1e-15')).toBe(true);
    expect(search).toBe(checkout);
    expect(new Big(db).plus(checkout).plus(search).toFixed()).toBe('1034.5678901238');
    expect((await w.admin.del('/allocations/thirds')).status).toBe(200);
  });
});

describe('allocation in proportion', () => {
  it("splits shared-db by each service's spend on items tagged app in the month", async () => {
    // Proportions send spend to every service the basis selects: admins, unless it names one.
    const proportional = {
      name: 'db by use',
      selector: { catalogService: 'shared-db' },
      method: 'proportional',
      basis: { tag: 'app' },
    };
    const anywhere = await w.as(teamMate).post('/allocations', proportional);
    expect(anywhere.status).toBe(403);
    expect(anywhere.body.error.message).toContain(
      'the role admin (its basis names no catalog service, so it may send spend to any team)',
    );
    const res = await w.admin.post('/allocations', {
      name: 'db by use',
      selector: { catalogService: 'shared-db' },
      method: 'proportional',
      basis: { tag: 'app' },
    });
    expect(res.status).toBe(201);
    // Tagged app: checkout 1000, search 500. 1234 × 2/3 = 822.666666666667 (12 places), the
    // rest to search: 411.333333333333; together exactly 1234.
    expect(await exact('checkout')).toBe('1822.666666666667');
    expect(await exact('search')).toBe('1211.333333333333');
    expect(await exact('shared-db')).toBe('0');
    expect(await exact()).toBe('3384');
    expect(await w.breakdown('by=catalogService')).toEqual({
      [w.ids.checkout]: 1823,
      [w.ids.search]: 1211,
      '(unmatched)': 350,
    });
    const summary = await w.admin.get(`/reports/summary?${JANUARY}&catalogService=checkout`);
    expect(summary.body.data).toMatchObject({ totalAmount: 1823, itemCount: 2 });
    // A month without spend tagged app keeps shared-db's items whole.
    await w.admin.post('/items', {
      name: 'feb',
      amount: 99,
      date: '2026-02-03',
      service: 'shared-db',
    });
    const february = { from: new Date('2026-02-01'), to: new Date('2026-03-01'), currency: 'USD' };
    expect(await exact('shared-db', february)).toBe('99');
  });

  it('leaves the shared items out of their own basis; a credit lowers a weight', async () => {
    // March, every item tagged app: shared-db 1000 (the shared one: in the basis too), checkout
    // 300 and a credit of -50, search 100. Weights: checkout 250, search 100 (shared-db's own
    // 1000 left out). 1000 × 250/350 = 714.285714285714 (12 places; the largest gets the rest),
    // 1000 × 100/350 = 285.714285714286.
    const march = [
      ['shared-db', 1000],
      ['checkout', 300],
      ['checkout', -50],
      ['search', 100],
    ] as const;
    for (const [service, amount] of march)
      await w.admin.post('/items', {
        name: 'm',
        amount,
        service,
        date: '2026-03-02',
        tags: ['app'],
      });
    const month = { from: new Date('2026-03-01'), to: new Date('2026-04-01'), currency: 'USD' };
    expect(await exact('checkout', month)).toBe('964.285714285714');
    expect(await exact('search', month)).toBe('385.714285714286');
    expect(await exact('shared-db', month)).toBe('0');
    expect(await exact(undefined, month)).toBe('1350');
    // A basis selecting what the selector does is refused.
    const same = { basis: { catalogService: 'SHARED-DB' } };
    const res = await w.admin.put('/allocations/db%20by%20use', same);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('basis selects the same items as selector');
  });
});
