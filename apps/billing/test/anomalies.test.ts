import {
  AUTH_ENV,
  CALLERS,
  eventually,
  jsonApiAs,
  serviceUnderTest,
  sleep,
  useService,
  type Json,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import type { AnomalyRow, BillingDatabase } from '../src/database';
import { claimAnomalyAlerts, judgeDay } from '../src/domain/anomalies';
import { addDays, dayOf } from '../src/domain/forecast';
import { billing } from '../src/index';
import { dayBefore } from './budgets-world';

// Daily anomaly detection (issue 39, item 5) by its periodic durable job, on a fixed series with a
// hand-computed answer; a window that barely varied; dismissing one, and who may; resolution.

const env = {
  ...AUTH_ENV,
  BILLING_BUDGET_INTERVAL_MS: '0',
  BILLING_ANOMALY_INTERVAL_MS: '200',
};
const svc = useService(() => serviceUnderTest(billing, { env, jobs: { pollMs: 50 } }), {
  scope: 'all',
});
const { admin, teamMate, stranger, viewer } = CALLERS;
const as = (identity: Identity | undefined) => jsonApiAs(svc.app, billing.prefix, identity);
const db = () => svc.db.schema<BillingDatabase>(billing.name);

// Cents a day of provider aws, which is also catalog service svc1 (payments-api, team payments),
// by days before today: yesterday the spike, then 14 ordinary days, then two more.
const SERIES = [
  15000, 10000, 10200, 9800, 10000, 10100, 9900, 10000, 10300, 9700, 10000, 10200, 9800, 10000,
  10000, 10000, 10000,
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
  // Oldest first: whenever the job looks, a day it judges has all its window before it.
  for (let k = SERIES.length; k >= 1; k--) {
    const item = {
      name: 'ec2',
      amount: SERIES[k - 1],
      provider: 'aws',
      service: 'payments-api',
      date: dayBefore(k),
    };
    expect((await as(admin).post('/items', item)).status).toBe(201);
  }
  // A provider with two days of history: too new to judge (BILLING_ANOMALY_MIN_DAYS, 7).
  for (const [k, amount] of [
    [2, 100],
    [1, 90_000],
  ])
    await as(admin).post('/items', { name: 'vm', amount, provider: 'fresh', date: dayBefore(k) });
  // What the resolution of items to catalog services does: made explicit.
  await db()
    .updateTable('items')
    .set({ catalog_service: 'svc1', catalog_owner: 'payments' })
    .where('provider', '=', 'aws')
    .execute();
});

const list = async (query = '') => {
  const res = await as(viewer).get(`/anomalies${query}`);
  expect(res.status).toBe(200);
  return res.body.data as Json[];
};

describe('detection', () => {
  it('finds yesterday’s spike per provider and per catalog service, and nothing else', async () => {
    await eventually(async () => (await list()).length === 2, { what: 'two anomalies' });
    // Yesterday (the 14 days before it, 2-15 days ago):
    //   10000 10200 9800 10000 10100 9900 10000 10300 9700 10000 10200 9800 10000 10000
    //   sorted: 9700 9800 9800 9900 10000 10000 [10000 10000] 10000 10000 10100 10200 10200 10300
    //   median = 10000
    //   |x - 10000| sorted: 0 0 0 0 0 0 [100 100] 200 200 200 200 300 300  ->  MAD = 100
    //   score = 0.6745 × (15000 - 10000) / 100 = 33.725 > 3.5; size = 15000 - 10000 = 5000
    // 2 days ago (10000): its median is 10000, no rise. 3 days ago (10200, window 4-17 days ago):
    //   median 10000, MAD 50 (seven deviations of 0), score 0.6745 × 200 / 50 = 2.698: ordinary.
    const expected = {
      day: dayBefore(1),
      expected: 10000,
      actual: 15000,
      size: 5000,
      mad: 100,
      status: 'open',
      reason: null,
    };
    const [service, provider] = [await list('?service=payments-api'), await list('?provider=aws')];
    expect(service).toEqual([
      expect.objectContaining({
        ...expected,
        scope: 'service',
        service: 'svc1',
        serviceName: 'payments-api',
        provider: null,
      }),
    ]);
    expect(provider).toEqual([
      expect.objectContaining({ ...expected, scope: 'provider', provider: 'aws', service: null }),
    ]);
    expect(service[0].score).toBeCloseTo(33.725, 6);
    expect(await list('?provider=fresh')).toEqual([]);
    expect(await list('?service=SVC1')).toHaveLength(1);
  });
});

describe('dismissing', () => {
  it('takes a reason, from the service’s team or an admin; dismissed ones stay listed', async () => {
    const [service] = await list('?service=svc1');
    const [provider] = await list('?provider=aws');
    const dismiss = (who: Identity, id: string, body: object = { reason: 'planned load test' }) =>
      as(who).post(`/anomalies/${id}/dismiss`, body);

    const refused = await dismiss(stranger, service.id);
    expect([refused.status, refused.body.error.message]).toEqual([
      403,
      'stranger@example.com may not update billing.anomaly: it needs ownership (it belongs to team payments)',
    ]);
    expect((await dismiss(viewer, service.id)).status).toBe(403);
    const mine = await dismiss(teamMate, provider.id);
    expect([mine.status, mine.body.error.message]).toEqual([
      403,
      'mate@example.com may not update billing.anomaly: it needs the role admin (it belongs to no one)',
    ]);
    const bad = await dismiss(teamMate, service.id, {});
    expect([bad.status, bad.body.error.message]).toEqual([400, expect.stringMatching(/reason/)]);
    expect((await dismiss(teamMate, 'nope')).status).toBe(404);
    expect(await list('?status=dismissed')).toEqual([]);

    const done = await dismiss(teamMate, service.id);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      id: service.id,
      status: 'dismissed',
      reason: 'planned load test',
      dismissedBy: 'mate@example.com',
    });
    expect((await dismiss(admin, provider.id, { reason: 'known' })).status).toBe(200);
    const again = await dismiss(admin, provider.id, { reason: 'twice' });
    expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);

    // Detection runs again (every 200 ms) and finds the same days: they stay dismissed.
    await sleep(500);
    expect((await list('?status=dismissed')).map((a) => [a.id, a.reason]).sort()).toEqual(
      [
        [service.id, 'planned load test'],
        [provider.id, 'known'],
      ].sort(),
    );
    expect(await list('?status=open')).toEqual([]);
    expect((await as(undefined).get('/anomalies')).status).toBe(401);
  });
});

describe('a window that barely varied', () => {
  // 13 days at 10000 and one at 10001: median 10000; |x - 10000|: 13 zeros and a 1, MAD 0; the
  // mean deviation 1/14 is the fallback's scale.
  const day = new Date('2026-03-15T00:00:00Z');
  const daily = new Map<string, string>();
  for (let i = 1; i <= 14; i++) daily.set(dayOf(addDays(day, -i)), i === 5 ? '10001' : '10000');
  const judge = (actual: number, minRatio: number) =>
    judgeDay(new Map([...daily, [dayOf(day), String(actual)]]), day, {
      ...{ windowDays: 14, minDays: 7, threshold: 3.5, minCents: 100, minRatio },
    });
  it('takes a rise under BILLING_ANOMALY_MIN_RATIO of the median as ordinary', () => {
    // Without the relative floor, a rise of 100 (1 %) would score 100 / (1.253314 × 1/14) = 1117.04.
    expect(judge(10100, 0)?.score).toBeCloseTo(1117.0385, 3);
    // With it: the rise must be at least max(100, 0.1 × 10000) = 1000.
    expect(judge(10100, 0.1)).toBeUndefined();
    expect(judge(10999, 0.1)).toBeUndefined();
    const judged = judge(11000, 0.1);
    expect(judged).toMatchObject({ expected: 10000, actual: 11000, size: 1000, mad: 0 });
    expect(judged?.score).toBeCloseTo(11170.385, 2); // 1000 × 14 / 1.253314
  });
});

describe('resolution', () => {
  it('resolves open anomalies outside the lookback or normal again; found again: open', async () => {
    const open = { expected: 100, actual: 900, size: 800, score: 9, mad: 10 };
    await db()
      .insertInto('anomalies')
      .values([
        { id: 'oldanomaly01', scope: 'provider', key: 'aws', day: dayBefore(10), ...open },
        { id: 'freshnormal1', scope: 'provider', key: 'fresh', day: dayBefore(1), ...open },
      ])
      .execute();
    const [service] = await list('?service=svc1');
    await db()
      .updateTable('anomalies')
      .set({ status: 'resolved' })
      .where('id', '=', service.id)
      .execute();
    const status = async (id: string) => (await as(viewer).get(`/anomalies/${id}`)).body.data;
    await eventually(
      async () =>
        (await status('oldanomaly01')).status === 'resolved' &&
        (await status('freshnormal1')).status === 'resolved',
      { what: 'two anomalies resolved' },
    );
    expect((await status('oldanomaly01')).resolvedAt).toEqual(expect.any(String));
    // The service's spike is found again every run: resolved by hand, it is open again.
    await eventually(async () => (await status(service.id)).status === 'open', {
      what: 'the spike open again',
    });
    expect(await list('?status=resolved')).toHaveLength(2);

    // Alerts are claimed only for open anomalies: not for a dismissed or resolved one.
    const [dismissed] = await list('?status=dismissed');
    const row = (id: string) =>
      db().selectFrom('anomalies').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const claim = async (id: string) =>
      claimAnomalyAlerts(db(), [(await row(id)) as AnomalyRow], 'ch_x', 'USD');
    expect([await claim(dismissed.id), await claim('oldanomaly01')]).toEqual([0, 0]);
    expect(await claim(service.id)).toBe(1);
  });
});
