import { startOpenIdProvider, type OpenIdProvider } from '@platform/testing';
import { expectCleanPage, webTest } from './harness';

// Issue 41: the in-app inbox, read in the browser and kept live (the inbox stream through the
// browser's EventSource), and the bell of the platform's bar, shown to a signed-in person.
let idp: OpenIdProvider;
const web = webTest(async () => {
  idp = await startOpenIdProvider();
  return {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-web-inbox-test',
    AUTH_ADMINS: 'ann@example.com',
  };
});
afterAll(() => idp?.stop());

it('shows a new inbox message live in the bell and the inbox page, and marks it read', async () => {
  await idp.setClaims({ email: 'ann@example.com', email_verified: true, name: 'ann' });
  const inbox = await web.open('/communication/inbox');
  const { page } = inbox;
  await page.locator('header.ui-topbar').getByText('ann@example.com').waitFor();
  // Her session (the page's cookies) makes the calls, as the platform's own pages would.
  const call = async (path: string, data: object) => {
    const res = await page.request.post(`${web.url}/api/v1/communication${path}`, {
      data,
      headers: { origin: web.url },
    });
    expect(res.status()).toBeLessThan(300);
  };
  await call('/channels', { name: 'bell', provider: 'inbox' });
  await call('/apps/ops/channels', { channelId: 'bell' });
  const bell = page.locator('header.ui-topbar');
  await bell.getByRole('button', { name: 'Notifications, 0 unread' }).waitFor();
  await page.getByText('No messages.').waitFor();

  await call('/apps/ops/send', {
    channelId: 'bell',
    recipient: 'ann@example.com',
    subject: 'Deploy finished',
    text: 'crm is live',
  });
  // Live: no reload.
  await bell.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
  await page.getByRole('cell', { name: 'Deploy finished' }).waitFor();
  await expectCleanPage(inbox, 'communication-inbox');

  await bell.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await panel.getByText('crm is live').waitFor();
  await panel.getByRole('button', { name: 'Mark Deploy finished read' }).click();
  await bell.getByRole('button', { name: 'Notifications, 0 unread' }).waitFor();
  await page.getByRole('button', { name: 'Mark unread' }).waitFor();
  await expectCleanPage(inbox, 'communication-inbox-read');
});
