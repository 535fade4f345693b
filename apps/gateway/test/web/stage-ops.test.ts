import { expectCleanPage, webTest } from './harness';

// An app's backend in the sandbox UI (issue 32): its console lines (and new ones live, over
// Server-Sent Events), its schedules and its secrets, on the app's page. Authentication is off
// here: secrets cannot be kept without SESSION_SECRET, and the form says so (the API tests set
// them: apps/stage/test/backends-secrets.test.ts).

const web = webTest();

const BACKEND = `
export default {
  async fetch(request) {
    const say = new URL(request.url).searchParams.get('say') ?? 'hello';
    console.log('said ' + say);
    console.warn('careful ' + say);
    return new Response('ok');
  },
};
`;

describe("an app's backend in the sandbox UI", () => {
  it('shows its logs, following new ones live, its schedules and its secrets', async () => {
    const session = await web.client.stage.createSession({ body: {} });
    await web.client.stage.pushFiles({
      path: { id: session.id },
      body: { files: { '/app/main.tsx': 'export {};\n', '/app/api/index.ts': BACKEND } },
    });
    const schedules = { nightly: { cron: '0 3 * * *', route: '/nightly' } };
    const app = await web.client.stage.createApp({
      body: { sessionId: session.id, name: 'ops-ui', config: { schedules } },
    });
    const backend = (say: string) => fetch(`${web.url}/stage/${app.sid}/api/?say=${say}`);
    expect((await backend('first')).status).toBe(200);

    const opened = await web.open(`/stage/apps/${app.sid}`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Backend logs' }).waitFor();
    await page.getByText('said first').waitFor();
    await page.getByText('careful first').waitFor();
    await page.getByText('No secrets: the backend reads each as env.NAME.').waitFor();
    await page.getByText('0 3 * * *', { exact: true }).waitFor();
    await page.getByText('POST /nightly').waitFor();
    await expectCleanPage(opened, 'stage-app-ops');

    // Only warnings, then live: a line logged now appears without a reload.
    await page.getByLabel('Level').selectOption('warn');
    await page.getByText('said first').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Follow live' }).click();
    await page.getByText('Following: new lines appear on top.').waitFor();
    expect((await backend('live')).status).toBe(200);
    await page.getByText('careful live').waitFor();
    expect(await page.getByText('said live').count()).toBe(0);
    await page.getByRole('button', { name: 'Stop following' }).click();

    // Without SESSION_SECRET a secret cannot be kept: the form says why, the value is not shown.
    const form = page.getByRole('form', { name: 'Set a secret' });
    await form.getByLabel('Name').fill('API_TOKEN');
    await form.getByLabel('Value').fill('sk-ui-0123456789abcdef');
    await form.getByRole('button', { name: 'Set' }).click();
    await form
      .getByRole('alert')
      .getByText(/SESSION_SECRET, which is not set/)
      .waitFor();
    expect(await page.getByText('sk-ui-0123456789abcdef').count()).toBe(0);
    expect(await web.client.stage.listAppSecrets({ path: { sid: app.sid } })).toEqual([]);
    await expectCleanPage(opened, 'stage-app-ops-secret-refused', {
      allow: [/^400 PUT \/api\/v1\/stage\/apps\/\w+\/secrets\/API_TOKEN$/, /SESSION_SECRET/],
    });
  });
});
