import type { Page } from 'playwright-core';
import { expectCleanPage, webTest } from './harness';

const web = webTest();

const main = (text: string) =>
  `import { createRoot } from 'react-dom/client';\n\ncreateRoot(document.getElementById('root')!).render(<h1>${text}</h1>);\n`;
// Line 3 lacks its closing parenthesis: esbuild names that line.
const broken = `import { createRoot } from 'react-dom/client';\n\ncreateRoot(document.getElementById('root')!).render(<h1>Broken</h1>;\n`;

const editor = (page: Page, path: string) =>
  page.getByRole('textbox', { name: `Contents of ${path}` });
const preview = (page: Page) => page.frameLocator('iframe[title="Preview"]');

/** A session with files and an app serving it, seeded through the API. */
async function seedApp(name: string, workflows: object) {
  const session = await web.client.stage.createSession({ body: {} });
  await web.client.stage.pushFiles({
    path: { id: session.id },
    body: {
      files: {
        '/app/main.tsx': main('Seeded'),
        '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }),
      },
    },
  });
  const app = await web.client.stage.createApp({ body: { sessionId: session.id, name } });
  return { session, app };
}

describe('the sandbox UI', () => {
  it('creates a session, edits and saves a file, previews it, shows a render error at its line, snapshots and restores', async () => {
    const opened = await web.open('/stage/');
    const { page } = opened;
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
    await expectCleanPage(opened, 'stage-sessions');

    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('heading', { name: /^Session \w+$/ }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect(id).toMatch(/^\w{8}$/);
    await page.getByText('No files yet.').waitFor();

    // A file added through the UI, then its content seeded, as another tool would push it.
    await page.getByLabel('New file path').fill('/app/main.tsx');
    await page.getByRole('button', { name: 'Add file' }).click();
    await editor(page, '/app/main.tsx').waitFor();
    await web.client.stage.pushFiles({
      path: { id },
      body: { files: { '/app/main.tsx': main('Hello v1') } },
    });
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Files' })
      .getByRole('button', { name: 'main.tsx' })
      .click();
    await expect(editor(page, '/app/main.tsx').textContent()).resolves.toContain('Hello v1');

    // Edit in CodeMirror, save: the file is pushed, rendered, and the preview shows it.
    await editor(page, '/app/main.tsx').fill(main('Hello v2'));
    await page.getByText('unsaved changes').waitFor();
    // Saving keeps the same editor (its undo history, cursor): not mounted again.
    await page.locator('.stage-editor').evaluate((el) => el.setAttribute('data-mark', 'kept'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await preview(page).getByRole('heading', { name: 'Hello v2' }).waitFor();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    await expect(page.locator('.stage-editor').getAttribute('data-mark')).resolves.toBe('kept');
    const saved = await web.client.stage.getAllFiles({ path: { id }, query: { content: true } });
    expect(saved).toEqual([
      expect.objectContaining({ path: '/app/main.tsx', content: main('Hello v2') }),
    ]);
    await expectCleanPage(opened, 'stage-session');

    // A snapshot of the good state.
    await page.getByLabel('Snapshot label').fill('good');
    await page.getByRole('button', { name: 'Take snapshot' }).click();
    await page.getByRole('cell', { name: 'good', exact: true }).waitFor();
    const snapshots = await web.client.stage.getSnapshots({ path: { id } });
    expect(snapshots).toEqual([expect.objectContaining({ label: 'good', fileCount: 1 })]);

    // Broken code: the error names the file and line, the editor marks that line.
    await editor(page, '/app/main.tsx').fill(broken);
    await page.keyboard.press('Control+s');
    const alert = page.getByRole('alert').filter({ hasText: 'Render of /app/main.tsx failed' });
    await alert.getByText('/app/main.tsx:3:').waitFor();
    await page.locator('.cm-lint-marker-error').waitFor();
    await expect(page.locator('.cm-activeLine').textContent()).resolves.toContain('Broken');
    await expect(page.locator('.cm-lintRange-error').count()).resolves.toBe(1);
    // The preview keeps the last good render.
    await preview(page).getByRole('heading', { name: 'Hello v2' }).waitFor();
    const state = await web.client.stage.getRenderState({ path: { id } });
    expect(state.error).toMatchObject({ file: '/app/main.tsx', line: 3 });

    // Restore the snapshot through its dialog: the good file is back and renders again.
    await page.getByRole('button', { name: 'Restore good' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByText('Restored good: 1 written, 0 deleted.').waitFor();
    await alert.waitFor({ state: 'detached' });
    await expect(editor(page, '/app/main.tsx').textContent()).resolves.toContain('Hello v2');
    expect((await web.client.stage.getRenderState({ path: { id } })).error).toBeNull();

    // The session is listed in this browser; forgetting it asks first.
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('link', { name: id }).waitFor();
    await page.getByRole('button', { name: `Forget ${id}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Forget' }).click();
    await page.getByText('No session opened in this browser yet.').waitFor();
  });

  it("lists an app's workflow runs with each step's input, output and error", async () => {
    const { app } = await seedApp('bookings', {
      book: {
        steps: [
          { 'sheets.createSpreadsheet': { title: '{{ input.title }}' }, as: 'book' },
          { respond: { id: '{{ steps.book.spreadsheetId }}' } },
        ],
      },
      broken: { steps: [{ respond: { x: '{{ input.missing }}' } }] },
    });
    await web.client.stage.runWorkflow({
      path: { appSid: app.sid, workflowName: 'book' },
      body: { input: { title: 'Guests' } },
    });
    await expect(
      web.client.stage.runWorkflow({
        path: { appSid: app.sid, workflowName: 'broken' },
        body: {},
      }),
    ).rejects.toThrow('Unknown template variable input.missing');

    const list = await web.open('/stage/apps');
    await list.page.getByRole('link', { name: 'bookings' }).click();
    await list.page.getByRole('heading', { name: 'bookings', level: 1 }).waitFor();
    await expectCleanPage(list, 'stage-app');
    await list.page.getByRole('link', { name: 'Workflow runs' }).click();
    await list.page.getByRole('heading', { name: 'Workflow runs' }).waitFor();
    await list.page
      .getByRole('cell', { name: 'Unknown template variable input.missing' })
      .waitFor();
    await expectCleanPage(list, 'stage-runs');

    await list.page.getByLabel('Status').selectOption('completed');
    await list.page
      .getByRole('cell', { name: 'broken', exact: true })
      .waitFor({ state: 'detached' });
    await list.page.getByRole('row').filter({ hasText: 'book' }).getByRole('link').click();
    await list.page.getByRole('heading', { name: 'Run of book' }).waitFor();
    await list.page
      .getByRole('heading', { name: /steps\[0\] sheets.createSpreadsheet as "book"/ })
      .waitFor();
    await expect(
      list.page.getByLabel('Input of steps[0] sheets.createSpreadsheet as "book"').textContent(),
    ).resolves.toContain('Guests');
    await expect(list.page.getByLabel('Run result').textContent()).resolves.toMatch(/"id": "\w+"/);
    await expectCleanPage(list, 'stage-run');

    const runs = await web.client.stage.listRuns({
      path: { sid: app.sid },
      query: { status: 'failed' },
    });
    const failed = await web.open(`/stage/apps/${app.sid}/runs/${runs[0].id}`);
    await failed.page.getByRole('heading', { name: 'Run of broken' }).waitFor();
    await failed.page
      .getByRole('alert')
      .filter({ hasText: 'Unknown template variable input.missing' })
      .first()
      .waitFor();
  });

  it('follows a waiting run live, and approves it from its page', async () => {
    const { app } = await seedApp('approvals', {
      ship: {
        steps: [
          { waitFor: { approval: { message: 'Ship it?' }, timeout: '1h' }, as: 'ok' },
          { respond: { decided: '{{ steps.ok.status }}' } },
        ],
      },
    });
    const started = (await web.client.stage.runWorkflow({
      path: { appSid: app.sid, workflowName: 'ship' },
      body: {},
    })) as { runId: string; status: string };
    expect(started.status).toBe('waiting');
    const opened = await web.open(`/stage/apps/${app.sid}/runs/${started.runId}`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Run of ship' }).waitFor();
    await page.getByRole('heading', { name: /steps\[0\] waitFor as "ok" waiting/ }).waitFor();
    await page.getByText('Following the run live.').waitFor();
    await expectCleanPage(opened, 'stage-run-waiting');
    await page.getByRole('button', { name: 'Approve' }).click();
    // The stream brings the steps as they are recorded, and the result once the run ends.
    await page.getByRole('heading', { name: /steps\[1\] respond completed/ }).waitFor();
    await expect(page.getByLabel('Run result').textContent()).resolves.toContain('approved');
    await page.getByRole('button', { name: 'Approve' }).waitFor({ state: 'detached' });
  });

  it('creates, edits and unpublishes an app through the forms, with the API messages shown', async () => {
    const session = await web.client.stage.createSession({ body: {} });
    const { page, ...rest } = await web.open('/stage/apps/new');
    await page.getByLabel('Session').fill(session.id);
    await page.getByLabel('Name').fill(' spaced ');
    await page.getByRole('button', { name: 'Create' }).click();
    const invalid = page.locator('.ui-field-invalid', { has: page.getByLabel('Name') });
    await invalid.locator('.ui-field-error').waitFor();
    await expectCleanPage({ page, ...rest }, 'stage-app-new', {
      allow: [/^400 POST \/api\/v1\/stage\/apps$/, /^name /],
    });

    await page.getByLabel('Name').fill('guestbook');
    await page.getByLabel('Title').fill('Guest book');
    await page.getByLabel('Config').fill('{ "greeting": "Hi" }');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Guest book', level: 1 }).waitFor();
    const [created] = await web.client.stage.listApps({ query: { name: 'guestbook' } });
    expect(created).toMatchObject({ sessionId: session.id, config: { greeting: 'Hi' } });

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Title').fill('The guest book');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'The guest book', level: 1 }).waitFor();
    expect(await web.client.stage.getApp({ path: { sid: created.sid } })).toMatchObject({
      title: 'The guest book',
    });

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    expect(await web.client.stage.listApps({ query: { name: 'guestbook' } })).toEqual([]);
  });

  it("shows the API's message for a session or an app that does not exist", async () => {
    const session = await web.open('/stage/sessions/nosuchid');
    await session.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
    const app = await web.open('/stage/apps/nosuchap');
    await app.page
      .getByRole('alert')
      .filter({ hasText: /not found/i })
      .waitFor();
  });
});
