// Billing (issue 6): the list and the reports over 100,000 generated items.
import pg from 'pg';
import { databaseUrl, measure, start } from './lib.mjs';

/** Billing: reports over 100,000 items (issue 6). */
export async function billing() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from billing.items');
  // Generated in the database: 100,000 items over a year, 5 providers, 8 categories, some tags.
  await pool.query(`
    insert into billing.items (id, name, amount, currency, provider, category, service, tags, recurring, period, date)
    select 'b' || lpad(i::text, 11, '0'), 'item ' || i, (i * 7919) % 100000, 'USD',
           (array['openai','anthropic','aws','gcp',null])[1 + i % 5],
           'category-' || (i % 8), 'service-' || (i % 20),
           case when i % 3 = 0 then '["ml","gpu"]'::jsonb else '["web"]'::jsonb end,
           i % 10 = 0, case when i % 10 = 0 then 'monthly' end,
           timestamptz '2026-01-01' + (i % 365) * interval '1 day' + (i % 86400) * interval '1 second'
    from generate_series(1, 100000) as i`);
  await pool.query('analyze billing.items');
  await pool.end();
  const base = `${gateway.url}/api/v1/billing`;
  const list = await measure('GET /items?limit=100 (100,000 items)', `${base}/items?limit=100`);
  for (const [name, path] of [
    ['summary', 'reports/summary'],
    ['breakdown by provider', 'reports/breakdown?by=provider'],
    ['breakdown by tag', 'reports/breakdown?by=tag'],
    ['trend by day (365 rows)', 'reports/trend?interval=day'],
    ['trend by month, one provider', 'reports/trend?interval=month&provider=openai'],
  ])
    await measure(`GET /${path.split('?')[0]}: ${name}`, `${base}/${path}`, {}, list);
}
