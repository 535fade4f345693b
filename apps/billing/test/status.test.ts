import { ConfigError, standaloneConfig } from '@platform/core';
import { useService } from '@platform/testing';
import { billing } from '../src/index';
import { billingUnderTest } from './helpers';

const svc = useService(billingUnderTest);

describe('GET /status', () => {
  it('counts what is stored and says which database holds it', async () => {
    await svc.item({ amount: 150 });
    await svc.item({ amount: 50 });
    await svc.item({ amount: 999, currency: 'EUR' });
    await svc.post('/categories', { name: 'Compute' });
    const { body } = await svc.get('/status');
    expect(body.data).toEqual({
      initialized: true,
      config: { version: 1, currency: 'USD' },
      totalItems: 3,
      totalCategories: 1,
      totalSyncJobs: 0,
      totalAmount: 200,
      currency: 'USD',
      storageType: svc.db.kind,
      // No catalog here: nothing fetched (the periodic refresh may have failed already).
      catalog: expect.objectContaining({ fetchedAt: null, services: 0 }),
    });
  });

  it('refuses a bad BILLING_CURRENCY or adapter URL at start-up', () => {
    expect(() => standaloneConfig(billing, { BILLING_CURRENCY: 'dollars' })).toThrow(
      'Invalid configuration: BILLING_CURRENCY must be a 3-letter ISO 4217 code, got "DOLLARS"',
    );
    expect(() => standaloneConfig(billing, { BILLING_OPENAI_URL: 'nowhere' })).toThrow(ConfigError);
  });
});

describe('GET /search', () => {
  it('finds items by name first, then by other text', async () => {
    await svc.item({ name: 'Storage', description: 'GPU snapshots', date: '2026-01-01' });
    await svc.item({ name: 'GPU', date: '2026-01-02' });
    await svc.item({ name: 'GPU cluster', date: '2026-01-03' });
    await svc.item({ name: 'Other', tags: ['gpu-pool'], date: '2026-01-04' });
    await svc.item({ name: 'Unrelated' });
    const names = async (q: string) =>
      (await svc.get(`/search${q}`)).body.data.map((i: { name: string }) => i.name);
    expect(await names('?q=gpu')).toEqual(['GPU', 'GPU cluster', 'Other', 'Storage']);
    expect(await names('?q=gpu&limit=1')).toEqual(['GPU']);
    expect(await names('?q=zebra')).toEqual([]);
    expect((await svc.get('/search?q=')).body.error.message).toBe(
      'q (the search term) must not be empty',
    );
  });
});
