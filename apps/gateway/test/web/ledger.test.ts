import { expectCleanPage, expectRows, webTest } from './harness';

const web = webTest();

describe('the audit web UI', () => {
  it('lists events with filters, the chain verified, and an event in detail', async () => {
    for (const action of ['user.login', 'user.logout', 'deploy.finished'])
      await web.client.ledger.createEvent({ body: { action, actor: 'ana@example.com' } });
    const list = await web.open('/ledger/');
    const { page } = list;
    await page.getByRole('status').filter({ hasText: 'valid' }).waitFor();
    await page.getByText('3 events checked').waitFor();
    await expectRows(page, 3);
    await expectCleanPage(list, 'ledger-events');

    await page.getByLabel('Action', { exact: true }).fill('deploy.finished');
    await page.waitForURL(/action=deploy.finished/);
    await expectRows(page, 1);
    await page.getByRole('link', { name: 'deploy.finished' }).click();
    await page.getByRole('heading', { name: 'deploy.finished' }).waitFor();
    await page.getByText('Previous hash').waitFor();
    await expectCleanPage(list, 'ledger-event');
  });

  it('records an event through the form, and shows a JSON mistake beside its field', async () => {
    const form = await web.open('/ledger/events/new');
    const { page } = form;
    await expectCleanPage(form, 'ledger-event-new');
    await page.getByRole('button', { name: 'Create' }).click();
    // The API's own message, beside the field it names.
    await page.locator('.ui-field-error', { hasText: 'Action field is required' }).waitFor();
    await page.getByLabel('Action', { exact: true }).fill('backup.done');
    await page.getByLabel('Metadata').fill('{ not json');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ui-field-error', { hasText: 'metadata is not valid JSON' }).waitFor();
    await page.getByLabel('Metadata').fill('{"size": 42}');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'backup.done' }).waitFor();
    const [event] = await web.client.ledger.listEvents({ query: { action: 'backup.done' } });
    expect(event.metadata).toEqual({ size: 42 });
  });

  it('creates, applies and deletes a retention policy through the UI', async () => {
    const form = await web.open('/ledger/policies/new');
    const { page } = form;
    await page.getByLabel('Name').fill('short-lived');
    await page.getByLabel('Retention days').fill('0');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ui-field-error', { hasText: 'retentionDays' }).waitFor();
    await page.getByLabel('Retention days').fill('30');
    await page.getByLabel('Action', { exact: true }).selectOption('anonymize');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'short-lived' }).waitFor();
    expect(await web.client.ledger.getPolicy({ path: { idOrName: 'short-lived' } })).toMatchObject({
      retentionDays: 30,
      action: 'anonymize',
    });
    // The validation failure above was meant.
    await expectCleanPage(form, 'ledger-policy', {
      allow: [/^400 POST \/api\/v1\/ledger\/policies$/],
    });

    await page.getByRole('button', { name: 'Apply now' }).click();
    const apply = page.getByRole('dialog', { name: 'Apply now' });
    await apply.getByText(/Apply short-lived now\? .* anonymized at once/).waitFor();
    await apply.getByRole('button', { name: 'Apply now' }).click();
    await page.getByText(/0 deleted, 0 anonymized/).waitFor();

    // The confirmation opens on Cancel (one Enter does not delete); Escape closes it, and
    // nothing is deleted; focus is back on the button that opened it.
    const remove = page.getByRole('button', { name: 'Delete' });
    await remove.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
    expect(
      await page.evaluate(() => document.activeElement?.closest('dialog')?.open ?? false),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Delete');
    await expect(web.client.ledger.listPolicies()).resolves.toHaveLength(1);

    await remove.click();
    await dialog.getByText('Delete retention policy short-lived?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Retention policies' }).waitFor();
    await expect(web.client.ledger.listPolicies()).resolves.toEqual([]);
  });

  it('classifies a field, filters by level, and shows a missing one as the API says', async () => {
    const form = await web.open('/ledger/classifications/new');
    const { page } = form;
    await page.getByLabel('Service', { exact: true }).fill('billing');
    await page.getByLabel('Field').fill('customer.email');
    await page.getByLabel('Level').selectOption('pii');
    await page.getByLabel('Justification').fill('An email address identifies a person');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'billing · customer.email' }).waitFor();

    const list = await web.open('/ledger/classifications?level=pii');
    await list.page.getByRole('link', { name: 'customer.email' }).waitFor();
    await expectCleanPage(list, 'ledger-classifications');
    await list.page.getByLabel('Level').selectOption('public');
    await list.page.getByText('No classifications match.').waitFor();

    const missing = await web.open('/ledger/classifications/nope');
    await missing.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(missing, 'ledger-classification-missing', {
      allow: [/^404 GET \/api\/v1\/ledger\/classifications\/nope$/, /not found/i],
    });
  });
});
