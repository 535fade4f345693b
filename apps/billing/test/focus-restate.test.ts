import { start, svc, sync } from './sync-setup';

// Restated FOCUS exports (issue 12): a file imported again for its window is the truth for that
// window and its providers; what earlier imports made and the file no longer has is removed.

const HEADER = 'BilledCost,BillingCurrency,ChargePeriodStart,ProviderName,ResourceId,Tags';
const row = (cost: string, day: string, provider: string, resource: string, tags = '') =>
  `${cost},USD,2026-${day}T00:00:00Z,${provider},${resource},${tags}`;
const file = (...rows: string[]) => [HEADER, ...rows].join('\n');
const focus = (csv: string, from = '2026-01-01', to = '2026-01-31') =>
  sync({ provider: 'focus', csv, from, to });
const total = async () => (await svc.get('/reports/summary')).body.data.totalAmount;
const names = async () =>
  (await svc.get('/items?limit=1000')).body.data
    .map((i: { provider: string; amount: number }) => `${i.provider}:${i.amount}`)
    .sort();

beforeEach(() => start({}));

it('replaces restated rows instead of counting them twice, and a second import changes nothing', async () => {
  const first = file(
    row('10', '01-05', 'AWS', 'i-1', '"{""team"":""a""}"'),
    row('20', '01-06', 'AWS', 'i-2'),
    row('40', '01-07', 'Microsoft', 'vm-1'),
  );
  expect(await focus(first)).toMatchObject({ itemsCreated: 3, itemsDeleted: 0 });
  // Never touched: an item made by hand for AWS in the window, and an AWS import of February.
  await svc.item({ name: 'by hand', amount: 1, provider: 'AWS', date: '2026-01-10T00:00:00Z' });
  await svc.item({
    name: 'ref',
    amount: 2,
    provider: 'AWS',
    providerRef: 'r-1',
    date: '2026-01-11',
  });
  await focus(file(row('80', '02-03', 'AWS', 'i-9')), '2026-02-01', '2026-02-28');
  expect(await total()).toBe(15003);

  // The provider restated January for AWS: i-1 was re-tagged (a new charge identity), i-2 is
  // the same. The file has no Microsoft rows: Microsoft's items are not this file's to judge.
  const restated = file(
    row('10', '01-05', 'AWS', 'i-1', '"{""team"":""b""}"'),
    row('20', '01-06', 'AWS', 'i-2'),
  );
  const job = await focus(restated);
  expect(job).toMatchObject({ itemsCreated: 1, itemsUpdated: 1, itemsDeleted: 1 });
  expect(await total()).toBe(15003);
  expect(await names()).toEqual([
    'AWS:1',
    'AWS:1000',
    'AWS:2',
    'AWS:2000',
    'AWS:8000',
    'Microsoft:4000',
  ]);
  expect(await focus(restated)).toMatchObject({
    itemsCreated: 0,
    itemsUpdated: 2,
    itemsDeleted: 0,
  });
  expect(await total()).toBe(15003);
});

it('replaces the items of files without ProviderName (provider focus), but never a focus item made by hand', async () => {
  const old = 'BilledCost,BillingCurrency,ChargePeriodStart,ResourceId\n5,USD,2026-01-05,i-1\n';
  expect(await focus(old)).toMatchObject({ itemsCreated: 1 });
  await svc.item({ name: 'by hand', amount: 7, provider: 'focus', date: '2026-01-09T00:00:00Z' });
  const job = await focus(file(row('5', '01-05', 'AWS', 'i-1')));
  expect(job).toMatchObject({ itemsCreated: 1, itemsDeleted: 1 });
  expect(await names()).toEqual(['AWS:500', 'focus:7']);
  // A file with no row in the window removes nothing.
  const empty = await focus(`${HEADER}\n${row('1', '03-01', 'AWS', 'i-1')}`);
  expect(empty).toMatchObject({ rowsSkipped: 1, itemsDeleted: 0 });
  expect(await names()).toEqual(['AWS:500', 'focus:7']);
});
