import { expectCleanPage, expectRows, expectRowTexts, webTest } from './harness';

const web = webTest();

/** Eight events over five days of January 2026: page_view ×5, signup ×2, purchase ×1. */
beforeAll(async () => {
  const at = (day: number, hour: number) => `2026-01-0${day}T${10 + hour}:00:00.000Z`;
  const events = [
    ...[1, 1, 3, 5, 5].map((day, i) => ({ name: 'page_view', day, userId: `u${i % 2}` })),
    { name: 'signup', day: 1, userId: 'u0' },
    { name: 'signup', day: 3, userId: 'u1' },
    { name: 'purchase', day: 5, userId: 'u1' },
  ].map(({ name, day, userId }, i) => ({
    name,
    userId,
    sessionId: `s${day}`,
    properties: { path: `/p${i}` },
    timestamp: at(day, i),
  }));
  await web.client.pulse.trackEvents({ body: { events } });
});

describe('the analytics web UI', () => {
  it('lists events with filters and paging, and shows one in detail', async () => {
    const list = await web.open('/pulse/events?limit=3');
    const { page } = list;
    await expectRows(page, 3);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('4–6').waitFor();
    await expectRows(page, 3);
    // Page 2 shows exactly the API's second page, in its order.
    const shown = await page
      .locator('main tbody tr td:first-child a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')!.split('/').pop()));
    const second = await web.client.pulse.listEvents({ query: { limit: 3, offset: 3 } });
    expect(shown).toEqual(second.map((e) => e.id));
    await expectCleanPage(list, 'pulse-events');

    await page.getByLabel('Name', { exact: true }).fill('signup');
    await page.getByLabel('User', { exact: true }).fill('u1');
    await page.waitForURL(/userId=u1/);
    await expectRows(page, 1);
    await page.getByRole('link', { name: 'signup' }).click();
    await page.getByRole('heading', { name: 'signup' }).waitFor();
    await page.getByLabel('Properties').getByText('"/p6"').waitFor();
    await expectCleanPage(list, 'pulse-event');
  });

  it('charts the top events with their counts', async () => {
    const top = await web.open('/pulse/top');
    const { page } = top;
    const bars = page.getByRole('img', { name: 'Top events by count' });
    await bars.locator('.recharts-bar-rectangle').nth(2).waitFor();
    await expectRowTexts(page.getByRole('table', { name: 'Top events' }), [
      'page_view 5 62.5%',
      'signup 2 25.0%',
      'purchase 1 12.5%',
    ]);
    await expectCleanPage(top, 'pulse-top');

    await page.getByLabel('From').fill('2026-01-03');
    await page.getByLabel('How many').fill('2');
    await page.getByLabel('How many').press('Enter');
    await expectRowTexts(page.getByRole('table', { name: 'Top events' }), [
      'page_view 3 75.0%',
      'purchase 1 25.0%', // ties by name
    ]);
    await expect(bars.locator('.recharts-bar-rectangle').count()).resolves.toBe(2);
  });

  it('draws the timeline by day, one area per event name', async () => {
    const timeline = await web.open('/pulse/timeline');
    const { page } = timeline;
    const chart = page.getByRole('img', { name: 'Events by day' });
    await chart.locator('.recharts-area').nth(2).waitFor();
    await expect(chart.locator('.recharts-area').count()).resolves.toBe(3);
    // Days with events (the chart also has the empty 2nd and 4th at 0).
    await expectRowTexts(page.getByRole('table', { name: 'Events by day (UTC)' }), [
      '2026-01-01 2 1 0 3',
      '2026-01-03 1 1 0 2',
      '2026-01-05 2 0 1 3',
    ]);
    await expectCleanPage(timeline, 'pulse-timeline');
  });

  it('charts a trend, a funnel and a retention table from the insights API, numbers in tables', async () => {
    const range = 'from=2026-01-01&to=2026-01-05&tz=UTC';
    const trends = await web.open(`/pulse/trends?event=page_view&${range}`);
    let { page } = trends;
    await page
      .getByRole('img', { name: 'Events of page_view by day' })
      .locator('.recharts-area')
      .waitFor();
    await expectRowTexts(page.getByRole('table', { name: 'Events of page_view by day (UTC)' }), [
      '2026-01-01 2',
      '2026-01-02 0',
      '2026-01-03 1',
      '2026-01-04 0',
      '2026-01-05 2',
    ]);
    await expectCleanPage(trends, 'pulse-trends');

    const funnels = await web.open(`/pulse/funnels?steps=page_view,signup,purchase&${range}`);
    page = funnels.page;
    await page
      .getByRole('img', { name: 'Funnel: persons per step' })
      .locator('.recharts-bar-rectangle')
      .nth(2)
      .waitFor();
    await expectRowTexts(page.getByRole('table', { name: 'Funnel steps' }), [
      '1. page_view 2 100.0% 100.0%',
      '2. signup 2 100.0% 100.0%',
      '3. purchase 1 50.0% 50.0%',
    ]);
    await expectCleanPage(funnels, 'pulse-funnels');

    const retention = await web.open(
      '/pulse/retention?event=page_view&from=2026-01-01&to=2026-01-03&tz=UTC',
    );
    page = retention.page;
    await expectRowTexts(page.getByRole('table', { name: 'Retention by day (UTC)' }), [
      '2026-01-01 2 2 (100.0%) 0 (0.0%) 1 (50.0%)',
      '2026-01-02 0 0 (0.0%) 0 (0.0%) ',
      '2026-01-03 0 0 (0.0%)  ',
    ]);
    await expectCleanPage(retention, 'pulse-retention');
  });

  it('shows a person by any of their ids, with the ids merged by identify', async () => {
    const sent = await fetch(`${web.url}/api/v1/pulse/posthog/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        batch: [
          { event: '$pageview', distinct_id: 'anon-7', properties: {} },
          {
            event: '$identify',
            distinct_id: 'ada',
            properties: { $anon_distinct_id: 'anon-7', $set: { plan: 'pro' } },
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const person = await web.open('/pulse/persons?distinctId=anon-7');
    const { page } = person;
    await page.getByRole('link', { name: 'ada' }).waitFor();
    await expect(page.getByRole('link', { name: 'anon-7' }).count()).resolves.toBe(1);
    await page.getByText('"plan": "pro"').waitFor();
    await expectCleanPage(person, 'pulse-person');

    const nobody = await web.open('/pulse/persons?distinctId=nobody');
    await nobody.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(nobody, 'pulse-person-missing', {
      allow: [/^404 GET \/api\/v1\/pulse\/persons\/nobody$/, /not found/i],
    });
  });

  it('tracks an event through the form, with the API’s message beside its field', async () => {
    const form = await web.open('/pulse/events/new');
    const { page } = form;
    await expectCleanPage(form, 'pulse-event-new');
    await page.getByRole('button', { name: 'Create' }).click();
    const name = page.locator('.ui-field', { has: page.getByLabel('Name') });
    await name.locator('.ui-field-error', { hasText: /required/ }).waitFor();
    await expectCleanPage(form, 'pulse-event-refused', {
      allow: [/^400 POST \/api\/v1\/pulse\/events$/, /required/],
    });
    await page.getByLabel('Name').fill('checkout_started');
    await page.getByLabel('User').fill('u9');
    await page.getByLabel('Properties').fill('{"plan": "pro"}');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'checkout_started' }).waitFor();
    // Events are append-only: the API has no edit or delete, so the page offers none.
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    const [event] = await web.client.pulse.listEvents({ query: { name: 'checkout_started' } });
    expect(event).toMatchObject({ userId: 'u9', properties: { plan: 'pro' } });
  });

  it('shows NOT_FOUND for an event that does not exist', async () => {
    const missing = await web.open('/pulse/events/nope');
    await missing.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(missing, 'pulse-event-missing', {
      allow: [/^404 GET \/api\/v1\/pulse\/events\/nope$/, /not found/i],
    });
  });
});
