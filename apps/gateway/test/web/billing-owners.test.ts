import { expectCleanPage, expectRowTexts, webTest } from './harness';

// The Owners page of billing (issue 39, item 3): spend by owner and by catalog service, unmatched
// spend, owner rules and allocations, on the whole platform (the catalog in-process).
const web = webTest();

describe('the billing Owners page', () => {
  it('shows spend by owner, lists unmatched spend, and adds rules and allocations', async () => {
    const { catalog, billing } = web.client;
    await catalog.createOwner({ body: { name: 'payments' } });
    await catalog.createOwner({ body: { name: 'search-team' } });
    for (const [name, owner] of [
      ['checkout', 'payments'],
      ['search', 'search-team'],
      ['shared-db', 'payments'],
    ])
      await catalog.createService({ body: { name, owner } });
    await billing.refreshCatalogSnapshot();
    const spend = [
      ['a', 3000, 'checkout', 'aws'],
      ['b', 1000, 'Search', 'aws'],
      ['c', 500, 'Amazon RDS', 'aws'],
    ] as const;
    for (const [name, amount, service, provider] of spend)
      await billing.createItem({ body: { name, amount, service, provider, date: '2026-01-05' } });

    const owners = await web.open('/billing/owners');
    const { page } = owners;
    await expectRowTexts(page.getByRole('table', { name: 'Spend by owner' }), [
      'payments $30.00 66.67%',
      'search-team $10.00 22.22%',
      '(unmatched) $5.00 11.11%',
    ]);
    await expectRowTexts(page.getByRole('table', { name: 'Unmatched spend' }), [
      'aws Amazon RDS $5.00 1',
    ]);
    await page.getByText('3 catalog services, read').waitFor();

    const rule = page.getByRole('form', { name: 'New owner rule' });
    await rule.getByLabel('Catalog service').fill('shared-db');
    await rule.getByLabel('Service', { exact: true }).fill('amazon rds');
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await expectRowTexts(page.getByRole('table', { name: 'Owner rules' }), [
      '10 service amazon rds shared-db payments RemoveRemove the rule to shared-db?RemoveCancel',
    ]);
    await page.getByText('Every item resolves to a catalog service.').waitFor();

    // Shares not adding up to 100: the API's message on the form; then a good split.
    const split = page.getByRole('form', { name: 'New allocation' });
    await split.getByLabel('Name').fill('db split');
    await split.getByLabel('Shared catalog service').fill('shared-db');
    await split.getByLabel('Shares').fill('checkout=60, search=30');
    await split.getByRole('button', { name: 'Add allocation' }).click();
    await split
      .getByRole('alert')
      .filter({ hasText: 'shares: the percentages add up to 90, not 100' })
      .waitFor();
    await split.getByLabel('Shares').fill('checkout=60, search=40');
    await split.getByRole('button', { name: 'Add allocation' }).click();
    await expectRowTexts(page.getByRole('table', { name: 'Allocations' }), [
      `db split catalogService ${(await billing.listAllocations())[0].selector.catalogService} checkout 60%, search 40% RemoveRemove the allocation db split?RemoveCancel`,
    ]);
    // shared-db's $5.00 is now checkout's $3.00 and search's $2.00.
    await expectRowTexts(page.getByRole('table', { name: 'Spend by catalog service' }), [
      'checkout $33.00 73.33%',
      'search $12.00 26.67%',
    ]);
    await expectCleanPage(owners, 'billing-owners', {
      allow: [/^400 POST \/api\/v1\/billing\/allocations$/, /percentages add up to 90/],
    });
  });
});
