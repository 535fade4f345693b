import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { parse } from 'csv-parse/sync';
import { sql } from '@platform/db';
import { listen } from '@platform/testing';
import { finished, start, svc, sync } from './sync-setup';
import { upload } from './upload-helpers';

// FOCUS files as their authors publish them (issue 39): nothing lost. The expected totals come
// from the files themselves, read here by csv-parse and summed with big.js, not by the importer.

const FIXTURES = join(__dirname, 'fixtures', 'focus');
const read = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** The file's data rows, and its BilledCost sum in cents rounded once (half away from zero). */
function billed(csv: string) {
  const rows = parse(csv, { bom: true, columns: true, skip_empty_lines: true, trim: true });
  const sum = (rows as Array<{ BilledCost: string }>).reduce(
    (total, row) => total.plus(row.BilledCost),
    new Big(0),
  );
  return { rows: rows.length, cents: Number(sum.times(100).round(0, 1)) };
}

const summary = async (query: string) =>
  (await svc.get(`/reports/summary?${query}`)).body.data.totalAmount;

beforeEach(() => start({}));

describe('the public 1,000-row FOCUS 1.0 sample (NULL for absent values)', () => {
  const csv = read('focus_sample.csv');
  const window = 'from=2024-09-01&to=2024-09-30';

  it('imports every row: the total is the BilledCost sum rounded once, NULL is no value', async () => {
    const expected = billed(csv);
    expect(expected).toEqual({ rows: 1000, cents: 2052 }); // $20.52, as the issue counted
    const base = await listen(svc.app);
    const res = await upload(base, csv, window);
    expect(res.status).toBe(202);
    const job = await finished(res.body.data.id);
    expect(job).toMatchObject({
      status: 'completed',
      rowsRead: 1000,
      rowsWritten: 1000,
      rowsSkipped: 0,
      skippedRows: [],
    });
    expect(await summary(`${window}&currency=USD`)).toBe(expected.cents);
    const byProvider = (await svc.get(`/reports/breakdown?by=provider&${window}`)).body.data;
    expect(byProvider.map((r: { key: string }) => r.key).sort()).toEqual([
      'AWS',
      'Microsoft',
      'Oracle',
    ]);
    // No NULL became a value (in a dimension, a tag, a service...); NULL inside a value stays.
    const { rows } = await sql<{ nulls: number; untagged: number; kept: number }>`select
      count(*) filter (where
        exists (select from jsonb_each_text(dimensions) d where d.value ~* '^null$')
        or exists (select from jsonb_array_elements_text(tags) t where t.value ~* '(^|:)null$')
        or service ~* '^null$' or description ~* '^null$' or category ~* '^null$')::int as nulls,
      count(*) filter (where tags = '["synced"]'::jsonb and not dimensions ? 'Tags')::int as untagged,
      count(*) filter (where tags ? 'test:,NULL,NULL,')::int as kept
      from billing.items`.execute(svc.db.kysely);
    expect(rows[0]).toEqual({ nulls: 0, untagged: expect.any(Number), kept: 2 });
    expect(rows[0].untagged).toBeGreaterThan(0);
    // The same file again: the same items, the same total.
    const again = await upload(base, csv, window);
    expect(await finished(again.body.data.id)).toMatchObject({
      itemsCreated: 0,
      itemsDeleted: 0,
      rowsSkipped: 0,
    });
    expect(await summary(window)).toBe(expected.cents);
  });
});

describe('the FOCUS specification’s example data', () => {
  const files = readdirSync(join(FIXTURES, 'spec')).sort();
  const iso = (name: string) => /^\d{4}-\d{2}-\d{2}T/m.test(read(`spec/${name}`).split('\n')[1]);

  it('imports each commitment discount scenario with its exact total (null: no value; no BillingCurrency: the configured one)', async () => {
    const scenarios = files.filter(iso);
    expect(scenarios).toHaveLength(11);
    for (const name of scenarios) {
      const csv = read(`spec/${name}`);
      const expected = billed(csv);
      const job = await sync({ provider: 'focus', csv, from: '2023-01-01', to: '2023-12-31' });
      expect({ name, ...job }).toMatchObject({
        name,
        status: 'completed',
        rowsRead: expected.rows,
        rowsSkipped: 0,
      });
      // Each file is the truth for its window: it replaces the one before.
      expect({ name, total: await summary('currency=USD') }).toEqual({
        name,
        total: expected.cents,
      });
    }
    const items = (await svc.get('/items?limit=100')).body.data;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(JSON.stringify(item.dimensions)).not.toMatch(/"null"/i);
      expect(item.currency).toBe('USD');
    }
  });

  it('skips, each with its reason, the rows of the SaaS examples, whose dates are not ISO 8601', async () => {
    const examples = files.filter((name) => !iso(name));
    expect(examples).toHaveLength(15);
    for (const name of examples) {
      const csv = read(`spec/${name}`);
      const job = await sync({ provider: 'focus', csv, from: '2025-01-01', to: '2026-12-31' });
      const rows = parse(csv, { bom: true, skip_empty_lines: true }).length - 1;
      expect(job).toMatchObject({ status: 'completed', rowsRead: rows, rowsSkipped: rows });
      for (const skipped of job.skippedRows)
        expect(skipped.reason).toMatch(
          /^ChargePeriodStart is not a date: "\d{1,2}\/\d{1,2}\/\d{2}"$/,
        );
    }
  });
});

describe('absent values', () => {
  const header = 'BilledCost,BillingCurrency,ChargePeriodStart,ResourceId,RegionId,Tags,SkuId';
  const file = (absent: string) =>
    [
      header,
      `1.25,USD,2026-01-02T00:00:00Z,i-1,${absent},${absent},${absent}`,
      `2.50,USD,2026-01-03T00:00:00Z,${absent},eu-west-1,${absent},sku-1`,
    ].join('\n');
  const focus = (csv: string) =>
    sync({ provider: 'focus', csv, from: '2026-01-01', to: '2026-01-31' });

  it('are the same charge whether empty, NULL or null: a re-import updates, never adds', async () => {
    expect(await focus(file(''))).toMatchObject({ itemsCreated: 2, rowsSkipped: 0 });
    for (const absent of ['NULL', 'null', 'Null'])
      expect(await focus(file(absent))).toMatchObject({
        itemsCreated: 0,
        itemsUpdated: 2,
        itemsDeleted: 0,
        rowsSkipped: 0,
      });
    const items = (await svc.get('/items')).body.data;
    expect(items.map((i: { dimensions: object }) => i.dimensions)).toEqual([
      { RegionId: 'eu-west-1', SkuId: 'sku-1' },
      { ResourceId: 'i-1' },
    ]);
    expect(await summary('')).toBe(375);
  });

  it('skip a row only where a value is required, with the value shown', async () => {
    const csv = [
      header,
      'NULL,USD,2026-01-02T00:00:00Z,i-1,,,',
      '1,NULL,2026-01-02T00:00:00Z,i-1,,,',
      '1,USD,null,i-1,,,',
      '2,USD,2026-01-02T00:00:00Z,NULL,NULL,NULL,NULL',
    ].join('\n');
    const job = await focus(csv);
    expect(job).toMatchObject({ rowsRead: 4, rowsWritten: 1, rowsSkipped: 3, itemsCreated: 1 });
    expect(job.skippedRows).toEqual([
      { row: 2, reason: 'BilledCost is not a decimal number: "NULL"' },
      { row: 3, reason: 'BillingCurrency is not a 3-letter code: "NULL"' },
      { row: 4, reason: 'ChargePeriodStart is not a date: "null"' },
    ]);
  });
});
