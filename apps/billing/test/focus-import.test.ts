import Big from 'big.js';
import { focusFile } from './focus-fixtures';
import { start, svc, sync } from './sync-setup';

// FOCUS imports (issue 12): what a charge is, which columns reach the item, exact amounts.

const focus = (csv: string, from = '2023-01-01', to = '2023-01-31') =>
  sync({ provider: 'focus', csv, from, to });
const total = async (query = '') =>
  (await svc.get(`/reports/summary?${query}`)).body.data.totalAmount;
const breakdown = async (by: string) =>
  Object.fromEntries(
    (await svc.get(`/reports/breakdown?by=${by}`)).body.data.map(
      (r: { key: string; amount: number }) => [r.key, r.amount],
    ),
  );

beforeEach(() => start({}));

describe('the identity of a FOCUS charge', () => {
  it('keeps charges apart that differ only in charge category or frequency (the report of issue 12)', async () => {
    const csv =
      'ChargePeriodStart,ResourceId,ChargeCategory,ChargeFrequency,BilledCost,BillingCurrency\n2023-01-01T00:00:00Z,cd-1,Purchase,One-Time,4380.00,USD\n2023-01-01T00:00:00Z,cd-1,Purchase,Recurring,0.50,USD\n';
    expect(await focus(csv)).toMatchObject({ itemsCreated: 2, itemsUpdated: 0 });
    expect(await total()).toBe(438050);
    // The same file again changes nothing.
    expect(await focus(csv)).toMatchObject({ itemsCreated: 0, itemsUpdated: 2 });
    expect(await total()).toBe(438050);
    expect((await svc.get('/items')).body.data).toHaveLength(2);
  });

  it.each([
    ['ChargeDescription', 'Compute', 'Compute (spot)'],
    ['SkuPriceId', 'p-1', 'p-2'],
    ['CommitmentDiscountId', 'ri-1', 'ri-2'],
    ['SubAccountId', 'a-1', 'a-2'],
    ['ChargeClass', '', 'Correction'],
    ['PricingUnit', 'Hours', 'GB-Hours'],
    ['Tags', '"{""env"":""prod""}"', '"{""env"":""dev""}"'],
  ])('keeps charges apart that differ only in %s', async (column, a, b) => {
    const row = (value: string, cost: string) => `${cost},USD,2023-01-05T00:00:00Z,i-1,${value}`;
    const csv = [
      `BilledCost,BillingCurrency,ChargePeriodStart,ResourceId,${column}`,
      row(a, '1.00'),
      row(b, '2.00'),
    ].join('\n');
    expect(await focus(csv)).toMatchObject({ itemsCreated: 2, rowsWritten: 2 });
    expect(await total()).toBe(300);
  });

  it('sums identical rows of one file into one item, and a re-import leaves the sum alone', async () => {
    const csv = [
      'BilledCost,BillingCurrency,ChargePeriodStart,ResourceId,SubAccountName',
      '1.25,USD,2023-01-05T00:00:00Z,i-1,Prod',
      '1.25,USD,2023-01-05T00:00:00Z,i-1,Prod',
      '0.004,USD,2023-01-05T00:00:00Z,i-1,Prod',
    ].join('\n');
    expect(await focus(csv)).toMatchObject({ itemsCreated: 1, rowsRead: 3, rowsWritten: 3 });
    expect(await focus(csv)).toMatchObject({ itemsCreated: 0, itemsUpdated: 1 });
    const [item] = (await svc.get('/items')).body.data;
    expect(item).toMatchObject({ amount: 250, exactAmount: '250.4' });
  });
});

describe('FinOps dimensions', () => {
  it('reach the item, so that breakdowns show providers, services, categories, tags, accounts and regions', async () => {
    const { csv } = focusFile(4);
    expect(await focus(csv, '2026-01-01', '2026-01-31')).toMatchObject({ itemsCreated: 4 });
    expect(Object.keys(await breakdown('provider')).sort()).toEqual(['AWS', 'Microsoft']);
    expect(Object.keys(await breakdown('service')).sort()).toEqual([
      'Amazon EC2',
      'Virtual Machines',
    ]);
    expect(Object.keys(await breakdown('category'))).toEqual(['Compute']);
    expect(Object.keys(await breakdown('tag')).sort()).toEqual(['env:dev', 'env:prod', 'synced']);
    expect(Object.keys(await breakdown('account')).sort()).toEqual([
      'Account 0',
      'Account 1',
      'Account 2',
    ]);
    expect(Object.keys(await breakdown('region')).sort()).toEqual([
      'US East (N. Virginia)',
      'West Europe',
    ]);
    expect(Object.keys(await breakdown('chargeCategory'))).toEqual(['Usage']);
    const [ec2] = (await svc.get('/items?service=Amazon%20EC2&limit=1')).body.data;
    expect(ec2).toMatchObject({
      provider: 'AWS',
      service: 'Amazon EC2',
      category: 'Compute',
      recurring: false,
      tags: ['synced', 'env:prod'],
      dimensions: {
        SubAccountId: expect.stringMatching(/^acct-/),
        SubAccountName: expect.stringMatching(/^Account /),
        RegionName: 'US East (N. Virginia)',
        ResourceId: expect.stringMatching(/^res-/),
        SkuId: expect.stringMatching(/^sku-/),
        ChargeCategory: 'Usage',
        ChargeFrequency: 'Usage-Based',
        ChargePeriodEnd: expect.stringMatching(/^2026-01-/),
        Tags: { env: 'prod' },
      },
    });
  });

  it('makes a recurring charge a recurring item with the period of its charge period', async () => {
    const csv = [
      'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeFrequency,ResourceId',
      '10,USD,2023-01-01T00:00:00Z,2023-02-01T00:00:00Z,Recurring,s-1',
      '1,USD,2023-01-01T00:00:00Z,2023-01-02T00:00:00Z,Recurring,s-2',
    ].join('\n');
    await focus(csv);
    const items = (await svc.get('/items')).body.data;
    expect(items.map((i: { period: string }) => i.period).sort()).toEqual(['daily', 'monthly']);
    expect(items.every((i: { recurring: boolean }) => i.recurring)).toBe(true);
  });
});

describe('exact amounts', () => {
  it('reports the exact total of 1,000 sub-cent rows rounded once, in the summary, every breakdown and the trend', async () => {
    const { csv, exactCents } = focusFile(1000);
    const lines = csv.trim().split('\n').slice(1);
    const roundedRows = lines.reduce(
      (sum, line) => sum + Number(new Big(line.split(',')[0]).times(100).round(0, 1)),
      0,
    );
    const expected = Number(exactCents.round(0, 1));
    // The file is one where rounding each row would be wrong.
    expect(roundedRows).not.toBe(expected);
    expect(await focus(csv, '2026-01-01', '2026-01-31')).toMatchObject({ itemsCreated: 1000 });
    expect(await total()).toBe(expected);
    for (const by of ['provider', 'service', 'category', 'account', 'region', 'recurring']) {
      const rows = Object.values(await breakdown(by)) as number[];
      expect(rows.reduce((a, b) => a + b, 0)).toBe(expected);
    }
    const trend = (await svc.get('/reports/trend?interval=day')).body.data;
    expect(trend.reduce((sum: number, p: { amount: number }) => sum + p.amount, 0)).toBe(expected);
    expect((await svc.get('/status')).body.data.totalAmount).toBe(expected);
    const [first] = (await svc.get('/items?tags=env:dev&limit=1')).body.data;
    expect(new Big(first.exactAmount).round(0, 1).toNumber()).toBe(first.amount);
  });

  it('forgets the exact amount of an item whose amount is changed by hand', async () => {
    await focus('BilledCost,BillingCurrency,ChargePeriodStart\n0.004,USD,2023-01-02T00:00:00Z\n');
    const [item] = (await svc.get('/items')).body.data;
    expect(item).toMatchObject({ amount: 0, exactAmount: '0.4' });
    const res = await svc.put(`/items/${item.id}`, { amount: 7 });
    expect(res.body.data).toMatchObject({ amount: 7, exactAmount: null });
    expect(await total()).toBe(7);
  });
});
