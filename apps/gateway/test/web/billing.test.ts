import { sql } from '@platform/db';
import { expectCleanPage, expectRows, expectRowTexts, webTest } from './harness';

const web = webTest();

/** A FOCUS export: two charges in January 2026, one in December (outside the window: skipped). */
const FOCUS = [
  'BilledCost,BillingCurrency,ChargePeriodStart,ProviderName,ServiceName,ServiceCategory',
  '12.50,USD,2026-01-03T00:00:00Z,aws,EC2,Compute',
  '3.25,USD,2026-01-04T00:00:00Z,aws,S3,Storage',
  '1.00,USD,2025-12-01T00:00:00Z,aws,S3,Storage',
].join('\n');

describe('the billing web UI', () => {
  it('charts the trend and the breakdown from the reports, with their numbers', async () => {
    const spend = [
      ['GPU hours', 3000, 'compute', 'aws', '2026-01-05'],
      ['Tokens', 1250, 'ai', 'openai', '2026-01-05'],
      ['More tokens', 750, 'ai', 'openai', '2026-01-07'],
      ['Disks', 500, 'storage', 'aws', '2026-01-07'],
    ] as const;
    for (const [name, amount, category, provider, date] of spend)
      await web.client.billing.createItem({ body: { name, amount, category, provider, date } });
    const reports = await web.open('/billing/');
    const { page } = reports;
    await page.getByLabel('Summary').getByText('$55.00').waitFor();
    // Days 5, 6 and 7: one area, and every day in the table (the empty one at $0.00).
    const trend = page.getByRole('img', { name: 'Spending by day' });
    await trend.locator('.recharts-area').waitFor();
    const trendTable = page.getByRole('table', { name: 'Spending by day' });
    await expectRowTexts(trendTable, [
      '2026-01-05 $42.50 2',
      '2026-01-06 $0.00 0',
      '2026-01-07 $12.50 2',
    ]);
    const bars = page
      .getByRole('img', { name: 'Spending by category' })
      .locator('.recharts-bar-rectangle');
    await expect(bars.count()).resolves.toBe(3);
    await expectRowTexts(page.getByRole('table', { name: 'Spending by category' }), [
      'compute $30.00 1 54.55%',
      'ai $20.00 2 36.36%',
      'storage $5.00 1 9.09%',
    ]);
    await expectCleanPage(reports, 'billing-reports');

    await page.getByLabel('Breakdown by').selectOption('provider');
    await page.getByLabel('To', { exact: true }).fill('2026-01-06');
    await page.getByLabel('To', { exact: true }).press('Enter');
    await page.getByLabel('Summary').getByText('$42.50').waitFor();
    await expectRowTexts(page.getByRole('table', { name: 'Spending by provider' }), [
      'aws $30.00 1 70.59%',
      'openai $12.50 1 29.41%',
    ]);
    await expect(
      page
        .getByRole('img', { name: 'Spending by provider' })
        .locator('.recharts-bar-rectangle')
        .count(),
    ).resolves.toBe(2);
  });

  it('creates, edits and deletes an item, with the API’s message beside its field', async () => {
    const form = await web.open('/billing/items/new');
    const { page } = form;
    await expectCleanPage(form, 'billing-item-new');
    await page.getByLabel('Name').fill('Team plan');
    await page.getByLabel('Amount in cents').fill('4900');
    await page.getByLabel('Category').fill('tools');
    await page.getByLabel('Recurring').check();
    await page.getByRole('button', { name: 'Create' }).click();
    const period = page.locator('.ui-field', { has: page.getByLabel('Period') });
    await period.getByText('period is required when recurring is true').waitFor();
    await page.getByLabel('Period').selectOption('monthly');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Team plan' }).waitFor();
    await page.getByText('$49.00').waitFor();
    // The refusal above was meant.
    await expectCleanPage(form, 'billing-item', {
      allow: [/^400 POST \/api\/v1\/billing\/items$/],
    });

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Team plan' }).waitFor();
    await expectCleanPage(form, 'billing-item-edit');
    await page.getByLabel('Amount in cents').fill('5900');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('$59.00').waitFor();
    const [item] = await web.client.billing.listItems({ query: { category: 'tools' } });
    expect(item).toMatchObject({ amount: 5900, recurring: true, period: 'monthly' });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Spending items' }).waitFor();
    await expect(web.client.billing.listItems({ query: { category: 'tools' } })).resolves.toEqual(
      [],
    );
    await expectRows(page, 4);
    await page.getByLabel('Provider').fill('openai');
    await expectRows(page, 2);
    // No request for the deleted item after its delete (nothing to allow).
    await expectCleanPage(form, 'billing-items');
  });

  it('makes a category and shows its spending', async () => {
    const form = await web.open('/billing/categories/new');
    const { page } = form;
    await page.getByLabel('Name').fill('ai');
    await page.getByLabel('Colour').fill('#3366ff');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'ai' }).waitFor();
    await page.getByText('$20.00 over 2 items.').waitFor();
    await expectCleanPage(form, 'billing-category');
    await page.getByRole('link', { name: 'All categories' }).click();
    await expectRows(page, 1);
    await expectCleanPage(form, 'billing-categories');
  });

  it('uploads a FOCUS file and starts a sync, each job shown with its result', async () => {
    const sync = await web.open('/billing/jobs/new');
    const { page } = sync;
    await expectCleanPage(sync, 'billing-sync');
    const upload = page.getByRole('form', { name: 'Upload a FOCUS file' });
    await upload.getByLabel('FOCUS CSV file').setInputFiles({
      name: 'focus.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(FOCUS),
    });
    await upload.getByLabel('From').fill('2026-01-01');
    await upload.getByLabel('To').fill('2026-01-31');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: /^focus sync/ }).waitFor();
    await page.locator('.ui-details').getByText('completed', { exact: true }).waitFor(); // followed while running
    await page.getByRole('row', { name: /^4 ChargePeriodStart 2025-12-01.* is outside/ }).waitFor();
    await expectCleanPage(sync, 'billing-job');
    const [job] = await web.client.billing.listSyncJobs({ query: { provider: 'focus' } });
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 2, rowsSkipped: 1 });

    await page.goto('/billing/jobs/new');
    const start = page.getByRole('form', { name: 'Sync from a provider' });
    await start.getByLabel('Provider').selectOption('focus');
    await start.getByLabel('CSV').fill('Cost,Currency\n1,USD');
    await start.getByRole('button', { name: 'Start sync' }).click();
    await page.getByRole('alert').getByText('The FOCUS CSV has no BilledCost column').waitFor();

    await page.getByRole('link', { name: 'All sync jobs' }).click();
    await expectRows(page, 2);
    await expectCleanPage(sync, 'billing-jobs');
  });

  it('makes a budget, shows its spend, forecast and alerts, and dismisses an anomaly', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const log = { body: { name: 'budget-log', provider: 'log' } } as const;
    const channel = await web.client.communication.createChannel(log);
    await web.client.billing.createItem({
      body: { name: 'EC2 today', amount: 9000, provider: 'aws', date: today },
    });
    const form = await web.open('/billing/budgets/new');
    const { page } = form;
    await page.getByLabel('Name').fill('AWS');
    await page.getByLabel('Amount in cents').fill('10000');
    await page.getByLabel('Thresholds').fill('50, 100');
    await page.getByLabel('Channel').fill('nowhere');
    await page.getByLabel('Provider').fill('aws');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('channel: Channel not found: nowhere (communication)').first().waitFor();
    await page.getByLabel('Channel').fill('budget-log');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'AWS' }).waitFor();
    await page.getByRole('meter', { name: 'AWS: 90% of the budget spent' }).waitFor();

    // An anomaly as detection records it (the daily job's own test is in apps/billing).
    await sql`insert into billing.anomalies (id, scope, key, day, expected, actual, size, score, mad)
      values ('anomaly00001', 'provider', 'aws', ${today}, 1000, 9000, 8000, 53.96, 100)`.execute(
      web.gw.db.kysely,
    );
    await page.getByRole('link', { name: 'All budgets' }).click();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Checked 1 budgets: /).waitFor();
    await page.getByLabel('Forecast').getByText('$90.00').first().waitFor();
    await page.getByRole('meter', { name: 'AWS: 90% of the budget spent' }).waitFor();
    const anomalies = page.getByRole('table', { name: 'Anomalies' });
    await anomalies.getByRole('row', { name: `${today} aws $10.00 $90.00 $80.00 open` }).waitFor();
    const dismiss = page.getByRole('form', { name: `Dismiss aws on ${today}` });
    await dismiss.getByLabel('Reason').fill('a planned migration');
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await anomalies.getByText('a planned migration').waitFor();
    await anomalies.getByText('dismissed').waitFor();
    // The refusal of the unknown channel above was meant.
    await expectCleanPage(form, 'billing-budgets', {
      allow: [/^400 POST \/api\/v1\/billing\/budgets$/],
    });

    await page.getByRole('link', { name: 'AWS' }).click();
    const alerts = page.getByRole('table', { name: 'Alerts' });
    await alerts.getByRole('row', { name: /^\d{4}-\d{2} 50% actual sent —$/ }).waitFor();
    await expectCleanPage(form, 'billing-budget');

    // Its channel is deleted and another takes its name: an edit that leaves the channel field
    // alone leaves the budget's channel alone (it does not move to the new one).
    const path = { appId: 'billing', id: channel.id };
    await web.client.communication.deleteRegistration({ path });
    await web.client.communication.deleteChannel({ path: { id: channel.id } });
    await web.client.communication.createChannel(log);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Amount in cents').fill('20000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('$200.00').first().waitFor();
    const [saved] = await web.client.billing.listBudgets({ query: {} });
    expect(saved).toMatchObject({ amount: 20000, channel: channel.id, status: 'ok' });
  });

  it('shows NOT_FOUND for an item that does not exist', async () => {
    const missing = await web.open('/billing/items/nope');
    await missing.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(missing, 'billing-item-missing', {
      allow: [/^404 GET \/api\/v1\/billing\/items\/nope$/, /not found/i],
    });
  });
});
