import { start, svc, sync } from './sync-setup';

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
    // ProviderName is the item's provider (it was `focus` for every row before issue 12).
    const items = (await svc.get('/items?provider=AWS')).body.data;
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
