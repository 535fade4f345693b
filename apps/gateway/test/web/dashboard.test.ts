import { expectCleanPage, webTest } from './harness';

const web = webTest();

describe('the dashboard', () => {
  it('shows every service healthy, with links into each web UI', async () => {
    const { page, ...rest } = await web.open('/');
    const health = page.locator('section', { has: page.getByRole('heading', { name: 'Health' }) });
    for (const name of ['Catalog', 'Design system', 'Billing', 'Analytics', 'Audit', 'Inference'])
      await expect(health.getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    await expect(health.getByText('ok', { exact: true }).count()).resolves.toBeGreaterThanOrEqual(
      9,
    );
    await expect(
      page.getByRole('link', { name: 'Catalog', exact: true }).first().getAttribute('href'),
    ).resolves.toBe('/catalog/');
    await expectCleanPage({ page, ...rest }, 'dashboard');
  });

  it('turns a flag off at runtime, shows its source, and clears the override', async () => {
    const { page } = await web.open('/');
    const row = page.getByRole('row').filter({ hasText: /^git/ });
    await row.getByRole('button', { name: /Turn (on|off) git/ }).waitFor();
    const before = await web.client.gateway.getFeature({ path: { name: 'git' } });
    await row.getByRole('button', { name: /Turn (on|off) git/ }).click();
    await row.getByText('runtime override').waitFor();
    const after = await web.client.gateway.getFeature({ path: { name: 'git' } });
    expect(after).toMatchObject({ enabled: !before.enabled, source: 'override' });

    await row.getByRole('button', { name: 'Clear override of git' }).click();
    await row.getByText(/^(default|FEATURE_GIT)$/).waitFor();
    expect(await web.client.gateway.getFeature({ path: { name: 'git' } })).toMatchObject({
      enabled: before.enabled,
      override: null,
    });
  });

  it('lists the latest audit events; the card of a service turned off says so and calls nothing', async () => {
    await web.client.ledger.createEvent({
      body: { action: 'deploy.finished', actor: 'ci@example.com', resource: 'svc/cart' },
    });
    await web.client.gateway.setFeature({ path: { name: 'stage' }, body: { enabled: false } });
    try {
      const webPage = await web.open('/');
      const { page } = webPage;
      await page.getByRole('link', { name: 'deploy.finished' }).waitFor();
      await page.getByText('The sandbox (stage) is turned off.', { exact: true }).waitFor();
      await page.getByText(/Deliveries are read per sandbox app/).waitFor();
      await page.waitForLoadState('networkidle');
      const requests = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => e.name),
      );
      expect(requests.filter((url) => /\/api\/v1\/(stage|communication)\//.test(url))).toEqual([]);
      await expectCleanPage(webPage, 'dashboard-stage-off');
    } finally {
      await web.client.gateway.clearFeature({ path: { name: 'stage' } });
    }
  });

  it('answers an unknown path, of the dashboard or of a service, with "Page not found"', async () => {
    for (const path of ['/no/such/page', '/ledger/no/such/page']) {
      const webPage = await web.open(path);
      await webPage.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await webPage.page.getByRole('link', { name: 'Back to the start' }).waitFor();
    }
  });

  it('shows the API error instead of a blank page when a call fails', async () => {
    const { page, errors } = await web.open('/');
    await page.route('**/api/v1/health', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          error: { code: 'UNAVAILABLE', message: 'The database is down' },
        }),
      }),
    );
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The database is down' }).waitFor();
    // Chromium logs the 503 the route was told to answer, and nothing else.
    expect(errors.filter((e) => !e.includes('status of 503'))).toEqual([]);
  });

  it('serves the API reference at /docs with its operations and no console error', async () => {
    const { page, errors, failures } = await web.openAt(web.url);
    await page.goto('/docs');
    // The operations, grouped by service (a tag each), the gateway's own first.
    await page.locator('h3.opblock-tag[data-tag="gateway"]').waitFor({ timeout: 20_000 });
    await page.getByText('Health of every enabled service').first().waitFor();
    await page.waitForLoadState('networkidle');
    // The logo's inline style too: a Content-Security-Policy violation is a console error.
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
  });
});
