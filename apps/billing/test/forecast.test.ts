import { jsonApi, serviceUnderTest, useService } from '@platform/testing';
import type { BillingDatabase } from '../src/database';
import { evaluateBudgets, statusOf } from '../src/domain/budgets';
import { forecastOf, periodOf } from '../src/domain/forecast';
import { claimedKeys } from '../src/repositories/budgets-alerts';
import { billing } from '../src/index';

// The month-end forecast (issue 39, item 5) on a fixed series, against a hand computation; and a
// budget alerted by its forecast before its spend reaches the threshold, then by its spend.

// Budgets evaluated on request only (no evaluation after items change, at the real date).
const env = { BILLING_BUDGET_INTERVAL_MS: '0' };
const svc = useService(() => serviceUnderTest(billing, { env, jobs: false }), { scope: 'all' });
const api = () => jsonApi(svc.app, billing.prefix);
const db = () => svc.db.schema<BillingDatabase>(billing.name);

// aws, in cents, March 2026 (and one day of February):
//   Feb 28: 500
//   Mar 1-10: 100, 100, 120, 80, 100, 110, 90, 100, 2600 (a one-off), 100
// gcp, of catalog service svc1 (payments-api): Mar 5: 1000
const AWS: Array<[string, number]> = [
  ['2026-02-28', 500],
  ...[100, 100, 120, 80, 100, 110, 90, 100, 2600, 100].map(
    (amount, i) => [`2026-03-${String(i + 1).padStart(2, '0')}`, amount] as [string, number],
  ),
];

beforeAll(async () => {
  await db()
    .insertInto('catalog_services')
    .values({
      id: 'svc1',
      name: 'payments-api',
      system: null,
      system_name: null,
      owner: 'payments',
    })
    .execute();
  for (const [date, amount] of AWS)
    expect(
      (await api().post('/items', { name: 'ec2', amount, provider: 'aws', date })).status,
    ).toBe(201);
  await api().post('/items', {
    name: 'gke',
    amount: 1000,
    provider: 'gcp',
    service: 'payments-api',
    date: '2026-03-05',
  });
  // What the resolution of items to catalog services does (apps/billing owners): made explicit.
  await db()
    .updateTable('items')
    .set({ catalog_service: 'svc1', catalog_owner: 'payments' })
    .where('service', '=', 'payments-api')
    .execute();
});

const forecast = async (query: string) => {
  const res = await api().get(`/reports/forecast?${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('GET /reports/forecast', () => {
  it('projects the month with the median daily spend of the last 7 days', async () => {
    // aws as of March 10:
    //   spent     = 100+100+120+80+100+110+90+100+2600+100 = 3500 (February not counted)
    //   window    = Mar 4-10: 80, 100, 110, 90, 100, 2600, 100 -> sorted 80 90 100 [100] 100 110 2600
    //   run rate  = median = 100 (a mean, 3180/7 = 454.29, would project 13 040)
    //   remaining = Mar 11-31 = 21 days
    //   forecast  = 3500 + 100 × 21 = 5600
    expect(await forecast('provider=aws&asOf=2026-03-10')).toEqual({
      period: '2026-03',
      from: '2026-03-01',
      to: '2026-03-31',
      asOf: '2026-03-10',
      spent: 3500,
      runRate: 100,
      windowDays: 7,
      daysRemaining: 21,
      forecast: 5600,
      currency: 'USD',
    });
    // Everything: gcp's 1000 on Mar 5 joins. spent = 4500; window 80, 1100, 110, 90, 100, 2600,
    // 100 -> sorted 80 90 100 [100] 110 1100 2600, median 100; forecast = 4500 + 2100 = 6600.
    expect(await forecast('asOf=2026-03-10')).toMatchObject({
      spent: 4500,
      runRate: 100,
      forecast: 6600,
    });
    // By catalog service (id or name) and owner: gcp's only. Window Mar 4-10: one day of 1000 and
    // six of 0, median 0: forecast = spent = 1000.
    for (const query of ['service=svc1', 'service=PAYMENTS-API', 'owner=payments'])
      expect(await forecast(`${query}&asOf=2026-03-10`)).toMatchObject({
        spent: 1000,
        runRate: 0,
        forecast: 1000,
      });
    // Early in the month the window reaches back into February: Feb 24 - Mar 2 holds 0 0 0 0 500
    // 100 100 -> median 0; spent = 200 (Mar 1-2), 29 days left: forecast 200.
    expect(await forecast('provider=aws&asOf=2026-03-02')).toMatchObject({
      spent: 200,
      runRate: 0,
      daysRemaining: 29,
      forecast: 200,
    });
  });

  it('refuses a day that is not on the calendar', async () => {
    for (const asOf of ['2026-02-30', '2026-13-01', 'yesterday']) {
      const res = await api().get(`/reports/forecast?asOf=${asOf}`);
      expect([res.status, res.body.error.message]).toEqual([400, expect.stringMatching(/asOf/)]);
    }
  });
});

describe('a budget and its forecast', () => {
  it('alerts a threshold the forecast reaches before the spend does, once, then when the spend does', async () => {
    await db()
      .insertInto('budgets')
      .values({
        id: 'budget000001',
        name: 'aws',
        amount: 5000,
        currency: 'USD',
        period: 'month',
        filter_owner: null,
        filter_service: null,
        filter_provider: 'aws',
        filter_tag: null,
        thresholds: JSON.stringify([60, 100, 120]) as unknown as number[],
        channel: 'ch_test',
        channel_name: 'test',
        created_by: null,
        team: null,
      })
      .execute();
    const now = new Date('2026-03-10T15:00:00Z');
    // spent 3500 = 70 % of 5000: 60 % by actual spend; forecast 5600 = 112 %: 100 % by forecast;
    // 120 % (6000) reached by neither.
    const { claimed } = await evaluateBudgets(db(), 7, now);
    expect(claimed.map((a) => [a.threshold, a.basis, a.period])).toEqual([
      [60, 'actual', '2026-03'],
      [100, 'forecast', '2026-03'],
    ]);
    expect(claimed[1].text).toBe(
      'Budget aws is forecast to reach 100% of 50.00 USD for 2026-03: 56.00 USD by 2026-03-31, 35.00 USD spent so far.',
    );
    // The figures are stored on the budget: what GET /budgets shows.
    const stored = await db().selectFrom('budgets').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      status: 'warning',
      figures: { period: '2026-03', spent: 3500, forecast: 5600, runRate: 100 },
      evaluated_at: now,
    });
    expect((await evaluateBudgets(db(), 7, now)).claimed).toEqual([]);
    // March 11: 1600 more; spent 5100 reaches 100 % itself: that alert too (its own claim), once.
    // Window Mar 5-11: 100 110 90 100 2600 100 1600 -> sorted 90 100 100 [100] 110 1600 2600, median
    // 100; forecast 5100 + 100 × 20 = 7100 = 142 %: 120 % by forecast now.
    await api().post('/items', { name: 'ec2', amount: 1600, provider: 'aws', date: '2026-03-11' });
    const later = new Date('2026-03-11T12:00:00Z');
    const { claimed: reached } = await evaluateBudgets(db(), 7, later);
    expect(reached.map((a) => [a.threshold, a.basis, a.key])).toEqual([
      [100, 'actual', 'budget:budget000001:2026-03:100:actual'],
      [120, 'forecast', 'budget:budget000001:2026-03:120:forecast'],
    ]);
    expect(reached[0].text).toMatch(
      /^Budget aws has reached 100% of 50\.00 USD for 2026-03: 51\.00 USD spent/,
    );
    expect((await evaluateBudgets(db(), 7, later)).claimed).toEqual([]);

    // A budget deleted while an evaluation runs: its alerts are skipped, the rest goes on.
    const [gone] = await db().deleteFrom('budgets').returningAll().execute();
    const raised = { ...gone, thresholds: [110], id: 'budget000002' };
    expect((await evaluateBudgets(db(), 7, later, [raised, gone])).claimed).toEqual([]);
  });

  it('says over only for actual spend at 100 %, warning for a threshold crossed below it', () => {
    const daily = new Map([['2026-03-10', '1000']]);
    // 1000 spent by March 10, run rate 0: forecast 1000.
    const f = forecastOf(daily, 'month', new Date('2026-03-10T00:00:00Z'), 7);
    const budget = (amount: number, thresholds: number[]) =>
      ({ amount, thresholds }) as Parameters<typeof statusOf>[0];
    expect(statusOf(budget(1000, [150]), f)).toBe('over'); // 100 % by spend, whatever the thresholds
    expect(statusOf(budget(1250, [80]), f)).toBe('warning'); // 80 % by spend
    expect(statusOf(budget(1250, [90]), f)).toBe('ok');
    const rising = forecastOf(
      new Map([...Array(10)].map((_, i) => [`2026-03-${String(i + 1).padStart(2, '0')}`, '100'])),
      'month',
      new Date('2026-03-10T00:00:00Z'),
      7,
    );
    // 1000 spent, forecast 1000 + 100 × 21 = 3100: 150 % of 2000 by forecast only.
    expect(rising.forecast).toBe(3100);
    expect(statusOf(budget(2000, [150]), rising)).toBe('warning');
    expect(statusOf(budget(2000, [160]), rising)).toBe('ok');
  });

  it('checks any number of claim keys (a thousand a query)', async () => {
    await db()
      .insertInto('alerts')
      .values({
        id: 'taken0000001',
        key: 'taken',
        channel: 'c',
        subject: 's',
        text: 't',
        details: '{}' as never,
      })
      .execute();
    const keys = Array.from({ length: 70_000 }, (_, i) => `budget:none:${i}`);
    expect([...(await claimedKeys(db(), [...keys, 'taken']))]).toEqual(['taken']);
  });

  it('counts calendar months, quarters and years in UTC', () => {
    const day = new Date('2026-11-30T23:59:00Z');
    expect(periodOf('month', day)).toEqual({
      key: '2026-11',
      start: new Date('2026-11-01T00:00:00Z'),
      end: new Date('2026-12-01T00:00:00Z'),
    });
    expect(periodOf('quarter', day).key).toBe('2026-Q4');
    expect(periodOf('quarter', day).end).toEqual(new Date('2027-01-01T00:00:00Z'));
    expect(periodOf('year', day).start).toEqual(new Date('2026-01-01T00:00:00Z'));
  });
});
