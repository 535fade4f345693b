import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { sleep, startProcess } from '@platform/testing';
import { request } from 'undici';
import { start, svc, sync } from './sync-setup';

// Reading FOCUS rows (issue 12): a byte-order mark, timestamps without an offset, skipped rows.

const focus = (csv: string, from = '2026-01-01', to = '2026-01-31') =>
  sync({ provider: 'focus', csv, from, to });

beforeEach(() => start({}));

it('accepts a file that starts with a UTF-8 byte-order mark', async () => {
  const csv = '\uFEFFBilledCost,BillingCurrency,ChargePeriodStart\n1.50,USD,2026-01-02T00:00:00Z\n';
  expect(await focus(csv)).toMatchObject({ status: 'completed', itemsCreated: 1, error: null });
  expect((await svc.get('/reports/summary')).body.data.totalAmount).toBe(150);
});

describe('timestamps without an offset', () => {
  const csv = [
    'BilledCost,BillingCurrency,ChargePeriodStart',
    '1,USD,2026-01-31T23:30:00', // New York: 2026-02-01T04:30Z, outside the range
    '2,USD,2026-01-01 00:00:00', // New York: in the range; UTC: also
    '4,USD,2025-12-31T22:00:00', // New York: 2026-01-01T03:00Z, inside; UTC: outside
  ].join('\n');

  it('are UTC in a billing process started with TZ=America/New_York', async () => {
    const server = await startProcess(join(__dirname, '..', 'dist', 'main.js'), {
      TZ: 'America/New_York',
      DATA_DIR: 'memory://',
    });
    try {
      const api = `${server.url}/api/v1/billing`;
      const body = { provider: 'focus', csv, from: '2026-01-01', to: '2026-01-31' };
      const res = await request(`${api}/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const { id } = ((await res.body.json()) as any).data;
      let job;
      do {
        await sleep(50);
        job = ((await (await request(`${api}/sync/jobs/${id}`)).body.json()) as any).data;
      } while (job.status === 'running');
      expect(job).toMatchObject({ itemsCreated: 2, rowsRead: 3, rowsWritten: 2, rowsSkipped: 1 });
      expect(job.skippedRows).toEqual([
        { row: 4, reason: expect.stringContaining('ChargePeriodStart 2025-12-31T22:00:00.000Z') },
      ]);
      const items = ((await (await request(`${api}/items`)).body.json()) as any).data;
      expect(items.map((i: { date: string }) => i.date).sort()).toEqual([
        '2026-01-01T00:00:00.000Z',
        '2026-01-31T23:30:00.000Z',
      ]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('parse to the same instant in a process started with TZ=America/New_York', () => {
    const dist = join(__dirname, '..', 'dist', 'domain', 'adapters', 'focus-row.js');
    const script = `const { parseUtc } = require(${JSON.stringify(dist)});
      console.log(['2026-01-31T23:30:00', '2026-01-01 00:00', '2026-03-08T02:30:00.5',
        '2026-01-01T05:00:00-05:00', '2026-01-01', '2026-02-30T00:00:00', 'soon']
        .map((t) => parseUtc(t)?.toISOString() ?? 'null').join(' '))`;
    const out = execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, TZ: 'America/New_York' },
    });
    expect(out.toString().trim().split(' ')).toEqual([
      '2026-01-31T23:30:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-03-08T02:30:00.500Z', // a time that does not exist in New York (DST gap)
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      'null',
      'null',
    ]);
  });
});

describe('skipped rows', () => {
  it('are reported in the job with their line and reason, and the rest is imported', async () => {
    const csv = [
      'BilledCost,BillingCurrency,ChargePeriodStart,Tags',
      '1,USD,2026-01-02T00:00:00Z,',
      '2,USD,2025-06-01T00:00:00Z,',
      '3,USD,yesterday,',
      'lots,USD,2026-01-02T00:00:00Z,',
      '5,US Dollars,2026-01-02T00:00:00Z,',
      '6,USD,2026-01-02T00:00:00Z,[1]',
      '7,USD',
      '8,USD,2026-01-03T00:00:00Z,"{""team"":""core""}"',
    ].join('\n');
    const job = await focus(csv);
    expect(job).toMatchObject({
      status: 'completed',
      itemsCreated: 2,
      rowsRead: 8,
      rowsWritten: 2,
      rowsSkipped: 6,
    });
    expect(job.skippedRows).toEqual([
      {
        row: 3,
        reason:
          "ChargePeriodStart 2025-06-01T00:00:00.000Z is outside the sync's range (2026-01-01T00:00:00.000Z to 2026-01-31T23:59:59.999Z)",
      },
      { row: 4, reason: 'ChargePeriodStart is not a date: "yesterday"' },
      { row: 5, reason: 'BilledCost is not a decimal number: "lots"' },
      { row: 6, reason: 'BillingCurrency is not a 3-letter code: "US Dollars"' },
      { row: 7, reason: 'Tags is not a JSON object: "[1]"' },
      { row: 8, reason: expect.stringContaining('Invalid Record Length') },
    ]);
    expect((await svc.get('/reports/summary')).body.data.totalAmount).toBe(900);
  });

  it('are all kept: the job previews the first 100, GET /sync/jobs/:id/skipped pages through every one', async () => {
    const lines = ['BilledCost,BillingCurrency,ChargePeriodStart'];
    for (let i = 0; i < 2500; i++) lines.push(`${i},USD,2020-01-01T00:00:00Z`);
    lines.push('1,USD,2026-01-05T00:00:00Z');
    const job = await focus(lines.join('\n'));
    expect(job).toMatchObject({ rowsRead: 2501, rowsWritten: 1, rowsSkipped: 2500 });
    expect(job.skippedRows).toHaveLength(100);
    expect(job.skippedRows[99].row).toBe(101);
    const rows: Array<{ row: number; reason: string }> = [];
    for (let offset = 0; offset < 3000; offset += 1000) {
      const page = await svc.get(`/sync/jobs/${job.id}/skipped?limit=1000&offset=${offset}`);
      expect(page.status).toBe(200);
      rows.push(...page.body.data);
    }
    expect(rows).toHaveLength(2500);
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 2));
    expect(rows.slice(0, 100)).toEqual(job.skippedRows);
    expect(rows[2499].reason).toMatch(/^ChargePeriodStart 2020-01-01T00:00:00.000Z is outside/);
    expect((await svc.get(`/sync/jobs/${job.id}/skipped`)).body.data).toHaveLength(100);
    const unknown = await svc.get('/sync/jobs/nope/skipped');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Sync job not found: nope');
  });

  it('include a quote left open to the end of the file', async () => {
    const csv =
      'BilledCost,BillingCurrency,ChargePeriodStart\n1,USD,2026-01-02\n"2,USD,2026-01-02\n';
    const job = await focus(csv);
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 1, rowsSkipped: 1 });
    expect(job.skippedRows).toEqual([{ row: 3, reason: expect.stringMatching(/quote/i) }]);
  });
});
