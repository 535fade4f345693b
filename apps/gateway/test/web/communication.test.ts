import { expectCleanPage, expectRows, webTest } from './harness';

// The webhook channel's secret may only go to its own host (CHANNEL_X_DESTINATION).
const web = webTest({
  CHANNEL_HOOK_SECRET: 'a-webhook-signing-secret',
  CHANNEL_HOOK_SECRET_DESTINATION: 'hooks.example.com',
});

describe('the communication web UI', () => {
  it('creates, edits and deletes a webhook channel, its secret a reference', async () => {
    const form = await web.open('/communication/channels/new');
    const { page } = form;
    await expectCleanPage(form, 'communication-channel-new');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ui-field-error', { hasText: 'Channel name is required' }).waitFor();

    await page.getByLabel('Name').fill('ops-hook');
    await page.getByLabel('Provider').selectOption('webhook');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/in');
    // Without authentication a literal secret cannot be stored: the API says so beside it.
    await page.getByLabel('Signing secret').fill('a-literal-secret-value');
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = page.locator('.ui-field', { has: page.getByLabel('Signing secret') });
    await secret.locator('.ui-field-error', { hasText: 'env:CHANNEL_' }).waitFor();
    await page.getByLabel('Signing secret').fill('env:CHANNEL_HOOK_SECRET');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'ops-hook' }).waitFor();
    await page.getByText('env:CHANNEL_HOOK_SECRET').waitFor();
    // The two refusals above were meant.
    await expectCleanPage(form, 'communication-channel', {
      allow: [/^400 POST \/api\/v1\/communication\/channels$/],
    });

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit ops-hook' }).waitFor();
    await expectCleanPage(form, 'communication-channel-edit');
    await page.getByLabel('Description').fill('Incidents to the on-call tool');
    await page.getByLabel('Status').selectOption('disabled');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Incidents to the on-call tool').waitFor();
    expect(await web.client.communication.getChannel({ path: { id: 'ops-hook' } })).toMatchObject({
      status: 'disabled',
      description: 'Incidents to the on-call tool',
      config: { url: 'https://hooks.example.com/in', secret: 'env:CHANNEL_HOOK_SECRET' },
    });

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete channel ops-hook?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await expect(web.client.communication.listChannels()).resolves.toEqual([]);
  });

  it('registers an app on a channel, disables, edits and deletes the registration', async () => {
    await web.client.communication.createChannel({ body: { name: 'team-log', provider: 'log' } });
    const session = await web.client.stage.createSession({ body: {} });
    const app = await web.client.stage.createApp({ body: { sessionId: session.id, name: 'crm' } });
    const picker = await web.open('/communication/apps');
    const { page } = picker;
    await expectCleanPage(picker, 'communication-apps');
    // A published sandbox app is offered; any other id can be typed.
    await page.getByLabel('Sandbox app').selectOption({ label: `crm (${app.sid})` });
    await expect(page.getByLabel('App id').inputValue()).resolves.toBe(app.sid);
    await page.getByLabel('App id').fill('crm.app');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'App crm.app' }).waitFor();

    await page.getByLabel('Target').fill('#sales');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('cell', { name: '#sales' }).waitFor();
    await expectCleanPage(picker, 'communication-app');
    await page.getByRole('button', { name: 'Disable team-log' }).click();
    await page.getByRole('button', { name: 'Enable team-log' }).waitFor();
    const path = { appId: 'crm.app', id: 'team-log' };
    await expect(web.client.communication.getRegistration({ path })).resolves.toMatchObject({
      enabled: false,
    });

    await page.getByRole('link', { name: 'Edit team-log' }).click();
    await page.getByRole('heading', { name: 'Edit crm.app on team-log' }).waitFor();
    await expectCleanPage(picker, 'communication-registration-edit');
    await page.getByLabel('Target').fill('#sales-eu');
    await page.getByLabel('Metadata').fill('{"region": "eu"}');
    await page.getByLabel('Enabled').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '#sales-eu' }).waitFor();
    await expect(web.client.communication.getRegistration({ path })).resolves.toMatchObject({
      enabled: true,
      target: '#sales-eu',
      metadata: { region: 'eu' },
    });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('This app is registered on no channel').waitFor();
    await expect(
      web.client.communication.listRegistrations({ path: { appId: 'crm.app' } }),
    ).resolves.toEqual([]);
  });

  it('sends a message and follows its delivery until it is sent', async () => {
    await web.client.communication.createChannel({ body: { name: 'audit-log', provider: 'log' } });
    await web.client.communication.createRegistration({
      path: { appId: 'shop' },
      body: { channelId: 'audit-log', target: 'ops' },
    });
    const form = await web.open('/communication/apps/shop/send');
    const { page } = form;
    await expectCleanPage(form, 'communication-send');
    await page.getByLabel('Subject').fill('Order 42');
    await page.getByLabel('Text').fill('Order 42 was paid.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: /^Delivery dl_/ }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Sent' }).waitFor();
    await page.getByRole('cell', { name: 'sent', exact: true }).waitFor();
    await expectCleanPage(form, 'communication-delivery');

    await page.getByRole('link', { name: 'Deliveries of shop' }).click();
    await expectRows(page, 1);
    await expectCleanPage(form, 'communication-deliveries');
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries match.').waitFor();
    const [delivery] = await web.client.communication.listDeliveries({ path: { appId: 'shop' } });
    expect(delivery).toMatchObject({ status: 'sent', subject: 'Order 42', target: 'ops' });
  });

  it('writes a template in two locales, previews it as the server renders it, edits and deletes it', async () => {
    const form = await web.open('/communication/apps/shop/templates/new');
    const { page } = form;
    await page.getByRole('heading', { name: 'New template' }).waitFor();
    await expectCleanPage(form, 'communication-template-new');
    await page.getByLabel('Name').fill('receipt');
    await page.getByLabel('Category').fill('orders');
    await page.getByLabel('Locales').fill('{ "en": { "subject": "Order {{ order }}"');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('alert').filter({ hasText: 'locales is not valid JSON' }).waitFor();
    await page.getByLabel('Locales').fill(
      JSON.stringify({
        en: {
          subject: 'Order {{ order }}',
          text: 'Thanks {{ name }}',
          html: '<p>Thanks <b>{{ name }}</b></p>',
        },
        fr: { subject: 'Commande {{ order }}', text: 'Merci {{ name }}' },
      }),
    );
    await page.getByLabel('Data schema').fill(
      JSON.stringify({
        type: 'object',
        required: ['order'],
        properties: { order: { type: 'integer' } },
      }),
    );
    await page.getByLabel('Sample data').fill('{ "order": 7, "name": "Ada" }');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'receipt' }).waitFor();
    await expectCleanPage(form, 'communication-template', { allow: [/locales is not valid JSON/] });

    // The preview renders on the server, the sample data by default; HTML escaped, in a sandbox.
    await page.getByLabel('Data', { exact: true }).fill('{ "order": 8, "name": "<Grace>" }');
    await page.getByLabel('Locale', { exact: true }).selectOption('fr');
    await page.getByRole('button', { name: 'Render' }).click();
    await page.getByLabel('Rendered text').filter({ hasText: 'Merci <Grace>' }).waitFor();
    await page.getByLabel('Locale', { exact: true }).selectOption('en');
    await page.getByRole('button', { name: 'Render' }).click();
    const frame = page.frameLocator('iframe[title="Rendered HTML"]');
    await frame.getByText('Thanks <Grace>').waitFor();
    await page.getByLabel('Data', { exact: true }).fill('{ "order": "eight" }');
    await page.getByRole('button', { name: 'Render' }).click();
    await page.getByRole('alert').filter({ hasText: 'order' }).waitFor();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit receipt' }).waitFor();
    await page.getByLabel('Category').fill('receipts');
    await page.getByRole('button', { name: 'Save' }).click();
    // Exactly: "Edit receipt", the form's own heading, holds the name too.
    await page.getByRole('heading', { name: 'receipt', exact: true }).waitFor();
    expect(
      await web.client.communication.getTemplate({ path: { appId: 'shop', idOrName: 'receipt' } }),
    ).toMatchObject({ version: 2, category: 'receipts', sampleData: { order: 7, name: 'Ada' } });

    await page.getByRole('link', { name: 'Templates of shop' }).click();
    await expectRows(page, 1);
    await expectCleanPage(form, 'communication-templates', {
      allow: [/^400 POST \/api\/v1\/communication\/apps\/shop\/templates\/tpl_\w+\/preview$/],
    });
    await page.getByRole('link', { name: 'receipt' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No templates yet.').waitFor();
    await expectCleanPage(form, 'communication-templates-empty');
  });

  it('lists channels by status, and shows a missing one as the API says', async () => {
    await web.client.communication.createChannel({ body: { name: 'night-log', provider: 'log' } });
    await web.client.communication.updateChannel({
      path: { id: 'night-log' },
      body: { status: 'disabled' },
    });
    const list = await web.open('/communication/channels?status=disabled');
    await list.page.getByRole('link', { name: 'night-log' }).waitFor();
    await expectRows(list.page, 1);
    await expectCleanPage(list, 'communication-channels');

    const missing = await web.open('/communication/channels/nope');
    await missing.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(missing, 'communication-channel-missing', {
      allow: [/^404 GET \/api\/v1\/communication\/channels\/nope$/, /not found/i],
    });
  });
});
