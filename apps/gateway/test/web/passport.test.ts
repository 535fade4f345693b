import { expectCleanPage, webTest } from './harness';

// Authentication is off here: everyone is anonymous and an administrator, and keys work
// (the README: a team can prepare them before switching authentication on).
const web = webTest();

describe('the identity UI', () => {
  it('shows the caller, the sessions and the connections pages', async () => {
    const me = await web.open('/passport/');
    await me.page.getByRole('heading', { name: 'Anonymous', level: 1 }).waitFor();
    await me.page.getByText('Authentication is off').waitFor();
    await expectCleanPage(me, 'passport-me');

    await me.page.getByRole('link', { name: 'Sessions' }).click();
    await me.page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
    await me.page.getByText('No sessions match').waitFor();
    await expectCleanPage(me, 'passport-sessions-empty');

    // A session as a sign-in leaves it (signing in needs an identity provider: signin.test.ts).
    await web.gw.db.kysely
      .withSchema('passport')
      .insertInto('sessions' as never)
      .values({
        id: 'sess0001',
        token_hash: 'a'.repeat(64),
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        subject: 'ada',
        expires_at: new Date(Date.now() + 86_400_000),
      } as never)
      .execute();
    await me.page.reload();
    const row = me.page.getByRole('row').filter({ hasText: 'ada@example.com' });
    await row.getByText('active', { exact: true }).waitFor();
    await expectCleanPage(me, 'passport-sessions');
    await row.getByRole('button', { name: 'End session of ada@example.com' }).click();
    await me.page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await row.getByText('ended', { exact: true }).waitFor();
    const [ended] = await web.client.passport.listSessions();
    expect(ended).toMatchObject({ id: 'sess0001', active: false });

    await me.page.getByRole('link', { name: 'Connections' }).click();
    await me.page.getByText('Only a signed-in person has connections').waitFor();
    await expectCleanPage(me, 'passport-connections');
  });

  it('creates an API key shown once, lists it, and revokes it through the dialog', async () => {
    const opened = await web.open('/passport/keys');
    const { page } = opened;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByText('No API keys match.').waitFor();
    await expectCleanPage(opened, 'passport-keys-empty');

    await page.getByRole('link', { name: 'New key' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    // The API's message beside the field it names.
    const nameField = page.locator('.ui-field-invalid', { has: page.getByLabel('Name') });
    await nameField.locator('.ui-field-error').filter({ hasText: 'name' }).waitFor();
    await expectCleanPage(opened, 'passport-key-new', {
      allow: [/^400 POST \/api\/v1\/passport\/keys$/, /^name must not be empty$/],
    });

    await page.getByLabel('Name').fill('ci');
    await page.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByLabel('Your new key');
    await shown.waitFor();
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^plk_[A-Za-z0-9]{38}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(secret);
    await expectCleanPage(opened, 'passport-key-shown');

    const [key] = await web.client.passport.listKeys();
    expect(key).toMatchObject({ name: 'ci', prefix: secret.slice(0, 8), revokedAt: null });

    // Once left, the key is never shown again: the detail page has its prefix only.
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'ci', level: 1 }).waitFor();
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await expectCleanPage(opened, 'passport-key');

    await page.getByRole('link', { name: 'All API keys' }).click();
    const row = page.getByRole('row').filter({ hasText: 'ci' });
    await row.getByText('active').waitFor();
    await row.getByRole('button', { name: 'Revoke ci' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByText('revoked', { exact: true }).waitFor();
    expect(
      (await web.client.passport.getKey({ path: { idOrName: key.id } })).revokedAt,
    ).not.toBeNull();
  });

  it('registers a provider through the form, with the API messages, and deletes it', async () => {
    const opened = await web.open('/passport/providers/new');
    const { page } = opened;
    await page.getByLabel('Name').fill('acme');
    await page.getByLabel('Type').selectOption('oauth2');
    await page.getByLabel('Client id').fill('platform');
    await page.getByLabel('Client secret').fill('hunter2');
    await page.getByLabel('Authorize URL').fill('https://acme.example/authorize');
    await page.getByLabel('Token URL').fill('https://acme.example/token');
    await page.getByRole('button', { name: 'Create' }).click();
    const secretField = page.locator('.ui-field-invalid', {
      has: page.getByLabel('Client secret'),
    });
    await secretField.locator('.ui-field-error').waitFor();
    await expectCleanPage(opened, 'passport-provider-new', {
      allow: [/^400 POST \/api\/v1\/passport\/providers$/, /^clientSecret must be env:/],
    });

    await page.getByLabel('Client secret').fill('env:OAUTH_ACME');
    await page.getByLabel('Scopes').fill('read, write');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'acme', level: 1 }).waitFor();
    await page.getByText('env:OAUTH_ACME').waitFor();
    await expectCleanPage(opened, 'passport-provider');
    const [provider] = await web.client.passport.listProviders();
    expect(provider).toMatchObject({ name: 'acme', type: 'oauth2', scopes: ['read', 'write'] });

    await page.getByRole('link', { name: 'All providers' }).click();
    await page.getByRole('link', { name: 'acme' }).waitFor();
    await expectCleanPage(opened, 'passport-providers');
    await page.getByRole('link', { name: 'acme' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No providers match.').waitFor();
    expect(await web.client.passport.listProviders()).toEqual([]);
  });

  it("shows the API's message for a key that does not exist", async () => {
    const missing = await web.open('/passport/keys/nosuchkey');
    await missing.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    await expectCleanPage(missing, 'passport-key-missing', {
      allow: [/^404 GET \/api\/v1\/passport\/keys\/nosuchkey$/, /not found/i],
    });
  });
});
