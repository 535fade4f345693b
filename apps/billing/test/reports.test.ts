import fc from 'fast-check';
import { useService } from '@platform/testing';
import { billingUnderTest } from './helpers';

const svc = useService(billingUnderTest);

const report = async (path: string) => {
  const res = await svc.get(`/reports/${path}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('reports', () => {
  beforeEach(async () => {
    await svc.item({
      amount: 1000,
      date: '2026-01-05',
      provider: 'openai',
      category: 'ml',
      tags: ['a', 'b'],
    });
    await svc.item({
      amount: 500,
      date: '2026-01-07',
      provider: 'anthropic',
      category: 'ml',
      tags: ['a'],
    });
    await svc.item({
      amount: 250,
      date: '2026-02-15',
      service: 'git',
      recurring: true,
      period: 'monthly',
    });
    await svc.item({ amount: 99999, date: '2026-01-06', currency: 'EUR', provider: 'openai' });
  });

  it('summarises one currency, all dates by default', async () => {
    expect(await report('summary')).toEqual({
      totalAmount: 1750,
      itemCount: 3,
      currency: 'USD',
      from: null,
      to: null,
    });
    expect(await report('summary?currency=eur')).toMatchObject({
      totalAmount: 99999,
      itemCount: 1,
      currency: 'EUR',
    });
    expect(await report('summary?from=2026-01-06&to=2026-01-31')).toEqual({
      totalAmount: 500,
      itemCount: 1,
      currency: 'USD',
      from: '2026-01-06',
      to: '2026-01-31',
    });
    expect(await report('summary?provider=openai&category=ml')).toMatchObject({
      totalAmount: 1000,
    });
  });

  it('breaks down by each key, largest first, (none) for items without it', async () => {
    expect(await report('breakdown?by=provider')).toEqual([
      { key: 'openai', amount: 1000, count: 1, percentage: 57.14 },
      { key: 'anthropic', amount: 500, count: 1, percentage: 28.57 },
      { key: '(none)', amount: 250, count: 1, percentage: 14.29 },
    ]);
    expect((await report('breakdown?by=recurring')).map((r: { key: string }) => r.key)).toEqual([
      'false',
      'true',
    ]);
    expect(await report('breakdown?by=tag')).toEqual([
      { key: 'a', amount: 1500, count: 2, percentage: 54.55 },
      { key: 'b', amount: 1000, count: 1, percentage: 36.36 },
      { key: '(none)', amount: 250, count: 1, percentage: 9.09 },
    ]);
    expect((await svc.get('/reports/breakdown?by=color')).body.error.message).toBe(
      'by must be one of: provider, category, service, recurring, tag, account, region, chargeCategory, catalogService, system, owner',
    );
  });

  it('gives every interval of the trend, empty ones with zero', async () => {
    expect(await report('trend?interval=month')).toEqual([
      { date: '2026-01', amount: 1500, count: 2 },
      { date: '2026-02', amount: 250, count: 1 },
    ]);
    expect(await report('trend?interval=week&from=2026-01-01&to=2026-01-20')).toEqual([
      { date: '2025-12-29', amount: 0, count: 0 },
      { date: '2026-01-05', amount: 1500, count: 2 },
      { date: '2026-01-12', amount: 0, count: 0 },
      { date: '2026-01-19', amount: 0, count: 0 },
    ]);
    const days = await report('trend?interval=day&from=2026-01-04&to=2026-01-08');
    expect(days.map((d: { date: string; amount: number }) => `${d.date}:${d.amount}`)).toEqual([
      '2026-01-04:0',
      '2026-01-05:1000',
      '2026-01-06:0',
      '2026-01-07:500',
      '2026-01-08:0',
    ]);
    expect(await report('trend?interval=day&currency=JPY')).toEqual([]);
  });

  it.each([
    ['summary?from=2026-1-1', 'from has an invalid format'],
    ['summary?from=2026-02-30', 'from is not a valid date or timestamp: 2026-02-30'],
    ['summary?from=2026-03-01&to=2026-02-01', 'from must not be after to'],
    ['trend?interval=year', 'interval must be one of: day, week, month'],
    [
      'trend?interval=day&from=1900-01-01&to=2026-01-01',
      'The range has more than 10000 days; narrow it or take a longer interval',
    ],
  ])('rejects %s', async (path, message) => {
    const res = await svc.get(`/reports/${path}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });
});

describe('reports add up (property)', () => {
  const items = fc.array(
    fc.record({
      amount: fc.integer({ min: -1_000_000, max: 10_000_000 }),
      day: fc.integer({ min: 0, max: 120 }),
      provider: fc.constantFrom('openai', 'anthropic', undefined),
      category: fc.constantFrom('ml', 'storage', undefined),
      recurring: fc.boolean(),
    }),
    { maxLength: 25 },
  );

  it('summary = sum of any breakdown (but tag) = sum of any trend', async () => {
    await fc.assert(
      fc
        .asyncProperty(items, async (list) => {
          await Promise.all(
            list.map((i) =>
              svc.item({
                amount: i.amount,
                date: new Date(Date.UTC(2026, 0, 1) + i.day * 86_400_000).toISOString(),
                provider: i.provider ?? null,
                category: i.category ?? null,
                recurring: i.recurring,
                period: i.recurring ? 'monthly' : null,
              }),
            ),
          );
          const summary = await report('summary');
          const sum = (rows: Array<{ amount: number }>) => rows.reduce((s, r) => s + r.amount, 0);
          expect(summary.totalAmount).toBe(sum(list));
          expect(summary.itemCount).toBe(list.length);
          for (const by of ['provider', 'category', 'recurring', 'service'])
            expect(sum(await report(`breakdown?by=${by}`))).toBe(summary.totalAmount);
          for (const interval of ['day', 'week', 'month'])
            expect(sum(await report(`trend?interval=${interval}`))).toBe(summary.totalAmount);
        })
        .beforeEach(() => svc.reset()),
      { numRuns: 15 },
    );
  });
});
