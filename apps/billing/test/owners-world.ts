import { catalog } from '@platform/catalog';
import type { Identity } from '@platform/core';
import { AUTH_ENV, CALLERS, jsonApiAs, servicesUnderTest, type Json } from '@platform/testing';
import type { BillingDatabase } from '../src/database';
import { billing } from '../src/index';

// Billing with the catalog in one app on one database (libs/testing's servicesUnderTest),
// authentication on: billing reads the catalog through its platform client in-process, as in the
// gateway, and `setEnabled('catalog', false)` turns the catalog off. Periodic jobs are off: the
// tests refresh the snapshot through POST /catalog-snapshot/refresh.
//
// The catalog: team payments (CALLERS.teamMate is in it by its groups) owns system storage and
// the services shared-db (in storage) and checkout (no system); team search-team owns search (in
// storage). The spend of January 2026, in cents:
//   checkout  1000  an item whose service is checkout's id, tagged app
//   search     500  an item whose service is SEARCH (its name, another case), tagged app
//   mystery    250  an item of no catalog service
//   FOCUS (AWS): Amazon RDS 1234 (no tag), Amazon EC2 300 (tag team=search), Amazon S3 100.

const SERVICES = [catalog, billing];

export const JANUARY = 'from=2026-01-01&to=2026-01-31';

export const FOCUS_CSV = [
  'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName,ResourceId,Tags',
  '12.34,USD,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z,AWS,Amazon RDS,db-1,',
  '3.00,USD,2026-01-06T00:00:00Z,2026-01-07T00:00:00Z,AWS,Amazon EC2,i-1,"{""team"":""search""}"',
  '1.00,USD,2026-01-07T00:00:00Z,2026-01-08T00:00:00Z,AWS,Amazon S3,b-1,',
].join('\n');

export async function ownersWorld() {
  const world = await servicesUnderTest(SERVICES, {
    env: { ...AUTH_ENV, BILLING_CATALOG_REFRESH_MS: '0' },
  });
  const as = (identity: Identity | undefined) => jsonApiAs(world.app, billing.prefix, identity);
  const catalogAs = (identity: Identity) => jsonApiAs(world.app, catalog.prefix, identity);
  const admin = as(CALLERS.admin);
  const made = async (res: Promise<{ status: number; body: Json }>) => {
    const { status, body } = await res;
    if (status !== 201 && status !== 202) throw new Error(JSON.stringify(body));
    return body.data;
  };
  const cat = catalogAs(CALLERS.admin);
  await made(cat.post('/owners', { name: 'payments' }));
  await made(cat.post('/owners', { name: 'search-team' }));
  await made(cat.post('/systems', { name: 'storage', owner: 'payments' }));
  const ids: Record<string, string> = {};
  for (const [name, owner, system] of [
    ['shared-db', 'payments', 'storage'],
    ['checkout', 'payments', null],
    ['search', 'search-team', 'storage'],
  ])
    ids[name as string] = (await made(cat.post('/services', { name, owner, system }))).id;
  ids.storage = (await cat.get('/systems/storage')).body.data.id;

  const refreshed = await admin.post('/catalog-snapshot/refresh');
  expect(refreshed.body.data).toMatchObject({ services: 3, stale: false, error: null });
  const items = {
    checkout: await made(
      admin.post('/items', {
        name: 'a',
        amount: 1000,
        date: '2026-01-02',
        service: ids.checkout,
        tags: ['app'],
      }),
    ),
    search: await made(
      admin.post('/items', {
        name: 'b',
        amount: 500,
        date: '2026-01-03',
        service: 'SEARCH',
        tags: ['app'],
      }),
    ),
    mystery: await made(
      admin.post('/items', { name: 'c', amount: 250, date: '2026-01-04', service: 'mystery' }),
    ),
  };
  /** Imports a FOCUS CSV for a window (YYYY-MM-DD, inclusive) and waits for its sync job. */
  const importFocus = async (csv: string, from: string, to: string) => {
    const job = await made(admin.post('/sync', { provider: 'focus', csv, from, to }));
    for (;;) {
      const state = (await admin.get(`/sync/jobs/${job.id}`)).body.data;
      if (state.status === 'completed') return state;
      if (state.status !== 'running') throw new Error(JSON.stringify(state));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await importFocus(FOCUS_CSV, '2026-01-01', '2026-01-31');

  /** The item whose service is `service`. */
  const item = async (service: string) => {
    const all = (await admin.get('/items?limit=1000')).body.data as Json[];
    return all.find((i) => i.service === service);
  };
  /** A report's rows as { key: amount }. */
  const breakdown = async (query: string) => {
    const res = await admin.get(`/reports/breakdown?${JANUARY}&${query}`);
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body.data as Json[]).map((r) => [r.key, r.amount])) as Record<
      string,
      number
    >;
  };
  return {
    ...world,
    as,
    admin,
    /** The catalog, as an admin. */
    catalog: cat,
    importFocus,
    ids,
    items,
    item,
    breakdown,
    billingDb: () => world.db.schema<BillingDatabase>(billing.name),
  };
}

export type OwnersWorld = Awaited<ReturnType<typeof ownersWorld>>;
