import { startOpenIdProvider, type OpenIdProvider } from '@platform/testing';
import type { Page } from 'playwright-core';
import { expectCleanPage, webTest } from './harness';

// Authentication on, with a real OpenID provider on localhost (as in signin.test.ts): root is an
// admin by AUTH_ADMINS; everyone else is a viewer until an admin makes them a member. The UIs show
// each person only what they may do: no button, link or form that could only answer 403.
let idp: OpenIdProvider;
const web = webTest(async () => {
  idp = await startOpenIdProvider();
  return {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-web-access-test',
    AUTH_ADMINS: 'root@example.com',
    AUTH_DEFAULT_ROLE: 'viewer',
    FEATURE_GIT: 'true',
  };
});
afterAll(() => idp?.stop());

/** A page at `path`, signed in as `email` (the provider signs in whoever its claims name). */
async function as(email: string, path: string, groups: string[] = []) {
  await idp.setClaims({ email, email_verified: true, name: email.split('@')[0], groups });
  const opened = await web.open(path);
  await opened.page.locator('header.ui-topbar').getByText(email).waitFor();
  return opened;
}

const count = (page: Page, role: 'link' | 'button' | 'columnheader', name: string) =>
  page.getByRole(role, { name, exact: true }).count();

describe('the web UIs with authentication on, by role', () => {
  it('show a viewer no create button nor people page; an admin makes her a member', async () => {
    const ann = await as('ann@example.com', '/catalog/services', ['payments']);
    await ann.page.getByText('No services match.').waitFor();
    expect(await count(ann.page, 'link', 'New service')).toBe(0);
    await expectCleanPage(ann, 'access-viewer-services');

    // Her identity page says why: her role, her groups (from the provider), her teams.
    await ann.page.goto('/passport/');
    const access = ann.page.locator('section', {
      has: ann.page.getByRole('heading', { name: 'Access' }),
    });
    await access.getByText('viewer', { exact: true }).waitFor();
    // Her groups (from the provider) are teams she is in: shown in both.
    await access.getByText('payments', { exact: true }).first().waitFor();
    expect(await count(ann.page, 'link', 'People')).toBe(0);
    await expectCleanPage(ann, 'access-viewer-me');
    await ann.page.goto('/passport/people');
    await ann.page.getByText('Only admins may see people and their roles.').waitFor();
    await expectCleanPage(ann, 'access-viewer-people');

    // The admin's people page: everyone who signed in, with a role to change after a confirm.
    const root = await as('root@example.com', '/passport/');
    await root.page.getByRole('link', { name: 'People', exact: true }).click();
    const row = root.page.getByRole('row').filter({ hasText: 'ann@example.com' });
    await row.getByText('the default (AUTH_DEFAULT_ROLE)').waitFor();
    const rootRow = root.page.getByRole('row').filter({ hasText: 'root@example.com' });
    await rootRow.getByText('Fixed by the configuration').waitFor();
    await expectCleanPage(root, 'access-people');
    await row.getByLabel('Role of ann@example.com').selectOption('member');
    await row.getByRole('button', { name: 'Change the role of ann@example.com' }).click();
    const dialog = root.page.getByRole('dialog');
    await dialog.getByText('Make ann@example.com a member (now viewer)?').waitFor();
    await expectCleanPage(root, 'access-people-confirm');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await row.getByText('set by an admin').waitFor();
    await row.getByText(/root@example\.com/).waitFor();

    // In force from her next request: she may create now.
    await ann.page.goto('/catalog/services');
    await ann.page.getByRole('link', { name: 'New service' }).waitFor();
    await ann.page.goto('/passport/');
    await access.getByText('member', { exact: true }).waitFor();
  });

  it('show edit and delete to the creator and admins only; flag overrides to admins', async () => {
    // ann (a member since the test above) makes a service; its page offers her every change.
    const ann = await as('ann@example.com', '/catalog/services/new');
    await ann.page.getByLabel('Name', { exact: true }).fill('cart');
    await ann.page.getByRole('button', { name: 'Create' }).click();
    await ann.page.getByRole('heading', { name: 'cart', level: 1 }).waitFor();
    await ann.page.getByRole('link', { name: 'Edit' }).waitFor();
    await ann.page.getByRole('button', { name: 'Delete' }).waitFor();
    await ann.page.getByText('ann@example.com', { exact: true }).first().waitFor();
    await ann.page.getByRole('button', { name: 'Add dependency' }).waitFor();
    await expectCleanPage(ann, 'access-member-service');
    const detail = new URL(ann.page.url()).pathname;

    // A viewer reads it: no button to change it, nor one to create another.
    const vic = await as('vic@example.com', '/catalog/services');
    await vic.page.getByRole('link', { name: 'cart' }).click();
    await vic.page.getByRole('heading', { name: 'cart', level: 1 }).waitFor();
    await vic.page.getByText('ann@example.com', { exact: true }).first().waitFor();
    for (const [role, name] of [
      ['link', 'Edit'],
      ['button', 'Delete'],
      ['button', 'Add dependency'],
    ] as const)
      expect({ name, count: await count(vic.page, role, name) }).toEqual({ name, count: 0 });
    await expectCleanPage(vic, 'access-viewer-service');
    await vic.page.goto(`${detail}/edit`);
    await vic.page
      .getByText('Only its creator, its team and admins may change this service.')
      .waitFor();

    // The dashboard: flags without their overrides; the audit trail is the admins'.
    await vic.page.goto('/');
    const flags = vic.page.locator('section', {
      has: vic.page.getByRole('heading', { name: 'Feature flags' }),
    });
    await flags.getByRole('row').filter({ hasText: /^git/ }).waitFor();
    expect(await count(vic.page, 'columnheader', 'Override')).toBe(0);
    expect(await vic.page.getByRole('button', { name: /^Turn (on|off)/ }).count()).toBe(0);
    await vic.page.getByText('The audit trail is read by admins.').waitFor();
    await expectCleanPage(vic, 'access-viewer-dashboard');
    // Nor does the audit app call what would answer 403.
    await vic.page.goto('/ledger/');
    await vic.page.getByText('Only admins may see the events.').waitFor();
    await expectCleanPage(vic, 'access-viewer-ledger');

    // The admin: every change, and the overrides.
    const root = await as('root@example.com', detail);
    await root.page.getByRole('link', { name: 'Edit' }).waitFor();
    await root.page.getByRole('button', { name: 'Delete' }).waitFor();
    await root.page.goto('/');
    await root.page.getByRole('button', { name: /^Turn (on|off) git$/ }).waitFor();
    expect(await count(root.page, 'columnheader', 'Override')).toBe(1);
    await expectCleanPage(root, 'access-admin-dashboard');
  });

  it('keep platform configuration to admins: no new channel or provider for a member', async () => {
    const config = [
      ['/communication/channels', 'New channel'],
      ['/inference/providers', 'New provider'],
      ['/git/providers', 'New provider'],
      ['/passport/providers', 'New provider'],
      ['/ledger/classifications', 'New classification'],
    ] as const;
    const ann = await as('ann@example.com', '/billing/', ['payments']);
    expect(await count(ann.page, 'link', 'Sync jobs')).toBe(0);
    for (const [path, name] of config) {
      await ann.page.goto(path);
      await ann.page.locator('main h1').waitFor();
      await ann.page.waitForLoadState('networkidle');
      expect({ path, count: await count(ann.page, 'link', name) }).toEqual({ path, count: 0 });
    }
    await expectCleanPage(ann, 'access-member-channels');
    // What members do make is offered, with a team to own it among theirs.
    await ann.page.goto('/billing/categories/new');
    await ann.page.getByLabel('Team').selectOption('payments');

    const root = await as('root@example.com', '/billing/');
    await root.page.getByRole('link', { name: 'Sync jobs' }).waitFor();
    for (const [path, name] of config) {
      await root.page.goto(path);
      await root.page.getByRole('link', { name, exact: true }).waitFor();
    }
  });

  it("offer a key only the scopes the person's role allows, and show them", async () => {
    const vic = await as('vic@example.com', '/passport/keys/new');
    const scopes = vic.page.getByRole('group', { name: 'Scopes' });
    await scopes.getByLabel('Read every service (*:read)').waitFor();
    expect(await scopes.getByLabel('Read every service (*:read)').isChecked()).toBe(true);
    for (const label of ['Everything your role allows (*)', 'catalog:write (reads too)', /admin/])
      expect({ label, count: await scopes.getByLabel(label).count() }).toEqual({ label, count: 0 });
    await expectCleanPage(vic, 'access-viewer-key-new');

    const ann = await as('ann@example.com', '/passport/keys/new');
    const form = ann.page.getByRole('group', { name: 'Scopes' });
    await form.getByLabel('Everything your role allows (*)').uncheck();
    await form.getByText('One service at a time').click();
    await form.getByLabel('catalog:read', { exact: true }).check();
    expect(await form.getByLabel(/admin/).count()).toBe(0);
    await ann.page.getByLabel('Name', { exact: true }).fill('ci');
    await ann.page.getByRole('button', { name: 'Create' }).click();
    await ann.page.getByLabel('Your new key').waitFor();
    await ann.page.getByRole('link', { name: 'Done' }).click();
    await ann.page.getByRole('heading', { name: 'ci', level: 1 }).waitFor();
    await ann.page.getByText('catalog:read', { exact: true }).waitFor();
    await ann.page.getByRole('link', { name: 'All API keys' }).click();
    const row = ann.page.getByRole('row').filter({ hasText: 'ci' });
    await row.getByText('catalog:read', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Revoke ci' }).waitFor();
    await expectCleanPage(ann, 'access-member-keys');

    const root = await as('root@example.com', '/passport/keys/new');
    await root.page
      .getByRole('group', { name: 'Scopes' })
      .getByLabel(/\(admin\)$/)
      .waitFor();
  });
});
