import { startOpenIdProvider, type OpenIdProvider } from '@platform/testing';
import { expectCleanPage, webTest } from './harness';

// Authentication on: a real OpenID provider on localhost signs people in (it approves at once),
// and the browser goes through the whole flow, redirects and cookie included.
let idp: OpenIdProvider;
const web = webTest(async () => {
  idp = await startOpenIdProvider();
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
  return {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-web-sign-in-test',
  };
});
afterAll(() => idp?.stop());

describe('the web UIs with authentication on', () => {
  it('sign a person in through the provider, show who they are, and sign them out', async () => {
    const opened = await web.open('/ledger/');
    const { page } = opened;
    // Sent to the provider and back to the page asked for, with a session.
    expect(new URL(page.url()).pathname).toBe('/ledger/events');
    const bar = page.locator('header.ui-topbar');
    await bar.getByText('ada@example.com').waitFor();
    await expectCleanPage(opened, 'signed-in-ledger');

    const [session] = await page.context().cookies();
    expect(session).toMatchObject({ httpOnly: true });
    const asAda = { cookie: `${session.name}=${session.value}` };
    expect((await fetch(`${web.url}/api/v1/passport/me`, { headers: asAda })).status).toBe(200);

    // Signing out ends the session at once; the provider (which approves anyone at once) then
    // signs the next person in, whose name the bar shows.
    await idp.setClaims({ email: 'bob@example.com', email_verified: true, name: 'Bob' });
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/v1/passport/logout'));
    await bar.getByRole('button', { name: 'Sign out' }).click();
    expect((await loggedOut).status()).toBe(200);
    await bar.getByText('bob@example.com').waitFor();
    expect((await fetch(`${web.url}/api/v1/passport/me`, { headers: asAda })).status).toBe(401);
  });
});
