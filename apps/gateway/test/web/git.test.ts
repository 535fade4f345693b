import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanPage, webTest } from './harness';

// The git service is experimental (off by default); its local provider keeps bare repositories
// in GIT_DATA_DIR, written with isomorphic-git: no network, no GitHub.
const dataDir = mkdtempSync(join(tmpdir(), 'git-web-'));
const web = webTest({ FEATURE_GIT: 'true', GIT_DATA_DIR: dataDir });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The console line Chromium writes for an answer of 4xx the test asked for. */

let repoId: string;
let first: string;
beforeAll(async () => {
  const git = web.client.git;
  await git.createProvider({ body: { name: 'Local', type: 'local' } });
  const repo = await git.connectRepo({
    body: { providerId: 'Local', owner: 'acme', repoName: 'widgets' },
  });
  repoId = repo.id;
  const path = { id: repoId };
  first = (
    await git.createCommit({
      path,
      body: {
        branch: 'main',
        message: 'First commit\n\nWith a body.',
        user: 'ada@example.com',
        files: [
          { path: 'README.md', content: '# Widgets\n' },
          { path: 'src/a.txt', content: 'a\n' },
        ],
      },
    })
  ).sha;
  await git.createBranch({ path, body: { name: 'feature', from: 'main' } });
  await git.createCommit({
    path,
    body: {
      branch: 'feature',
      message: 'Add the feature',
      files: [{ path: 'src/b.txt', content: 'b\n' }],
    },
  });
  await git.createPull({
    path,
    // By someone else than the browser's (anonymous) caller, who reviews it below.
    body: {
      title: 'Ship the feature',
      body: 'It adds b.',
      head: 'feature',
      base: 'main',
      user: 'ada@example.com',
    },
  });
});

describe('a repository', () => {
  it('lists repositories and shows branches from the repository itself', async () => {
    const webPage = await web.open('/git/repos');
    const { page } = webPage;
    await page.getByRole('link', { name: 'acme/widgets' }).click();
    await page.getByRole('heading', { name: 'acme/widgets' }).waitFor();
    const branches = await web.client.git.listBranches({ path: { id: repoId } });
    for (const b of branches) {
      const row = page.getByRole('row').filter({ hasText: b.name });
      await row.getByText(b.sha.slice(0, 7)).waitFor();
    }
    await page.getByRole('row').filter({ hasText: 'main' }).getByText('default').waitFor();
    await expectCleanPage(webPage, 'git-repo-branches');
    await page.goto('/git/repos');
    await page.getByRole('link', { name: 'acme/widgets' }).waitFor();
    await expectCleanPage(webPage, 'git-repos');
  });

  it('lists the commits of a branch and shows a commit with its files', async () => {
    const webPage = await web.open(`/git/repos/${repoId}?tab=commits`);
    const { page } = webPage;
    await page.getByRole('cell', { name: 'First commit' }).waitFor();
    await expect(page.getByRole('cell', { name: 'Add the feature' }).count()).resolves.toBe(0);
    await page.getByRole('combobox', { name: /^Branch/ }).selectOption('feature');
    await page.getByRole('cell', { name: 'Add the feature' }).waitFor();
    await expectCleanPage(webPage, 'git-repo-commits');

    await page.getByRole('row').filter({ hasText: 'First commit' }).getByRole('link').click();
    await page.getByRole('heading', { name: 'First commit' }).waitFor();
    await page.getByText(first, { exact: true }).waitFor();
    await page.getByRole('cell', { name: 'src/a.txt' }).waitFor();
    await page.getByText('None (the first commit)').waitFor();
    await expectCleanPage(webPage, 'git-commit');
  });

  it('lists pull requests and shows one with its changes', async () => {
    const webPage = await web.open(`/git/repos/${repoId}?tab=pulls`);
    const { page } = webPage;
    await page.getByRole('link', { name: '#1 Ship the feature' }).click();
    await page.getByRole('heading', { name: '#1 Ship the feature' }).waitFor();
    await page.getByText('It adds b.').waitFor();
    await page.getByRole('cell', { name: 'src/b.txt' }).waitFor();
    await page.getByText(/1 ahead, 0 behind main/).waitFor();
    await expectCleanPage(webPage, 'git-pull');
  });
});

describe('changing a repository through the UI', () => {
  it('creates a branch, commits a file, opens and merges a pull request, deletes the branch', async () => {
    const id = { id: repoId };
    const webPage = await web.open(`/git/repos/${repoId}`);
    const { page } = webPage;
    await page.getByRole('textbox', { name: 'Branch name' }).fill('docs');
    await page.getByRole('button', { name: 'Create branch' }).click();
    await page.getByRole('row').filter({ hasText: 'docs' }).waitFor();
    const branches = await web.client.git.listBranches({ path: id });
    expect(branches.map((b) => b.name).sort()).toEqual(['docs', 'feature', 'main']);

    await page.getByRole('link', { name: 'Commit a file' }).first().click();
    await page.getByRole('heading', { name: 'Commit a file' }).waitFor();
    await page.getByRole('combobox', { name: 'Branch' }).selectOption('docs');
    await page.getByRole('textbox', { name: 'Path' }).fill('docs/guide.md');
    await page.getByRole('textbox', { name: 'Content' }).fill('# Guide\n');
    await page.getByRole('textbox', { name: 'Commit message' }).fill('Write the guide');
    await expectCleanPage(webPage, 'git-commit-new');
    await page.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('heading', { name: 'Write the guide' }).waitFor();
    await page.getByRole('cell', { name: 'docs/guide.md' }).waitFor();

    await page.goto(`/git/repos/${repoId}/pulls/new`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Add the guide');
    await page.getByRole('combobox', { name: 'From branch' }).selectOption('docs');
    await page.getByRole('combobox', { name: 'Into branch' }).selectOption('main');
    await expectCleanPage(webPage, 'git-pull-new');
    await page.getByRole('button', { name: 'Open pull request' }).click();
    await page.getByRole('heading', { name: /^#2 Add the guide/ }).waitFor();
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    await page.getByText('merged', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Merge pull request' }).waitFor({ state: 'detached' });
    await expectCleanPage(webPage, 'git-pull-merged');
    const pull = await web.client.git.getPull({ path: { ...id, number: 2 } });
    expect(pull).toMatchObject({ merged: true, state: 'closed' });

    await page.goto(`/git/repos/${repoId}`);
    await page.getByRole('button', { name: 'Delete docs' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete docs' }).click();
    await page.getByRole('row').filter({ hasText: 'docs' }).waitFor({ state: 'detached' });
    const after = await web.client.git.listBranches({ path: id });
    expect(after.map((b) => b.name).sort()).toEqual(['feature', 'main']);
  });
});

describe('providers and repositories', () => {
  it('creates a provider, connects and disconnects a repository, deletes the provider', async () => {
    const webPage = await web.open('/git/providers/new');
    const { page } = webPage;
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Scratch');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('local');
    await expectCleanPage(webPage, 'git-provider-new');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Scratch' }).waitFor();
    await page.getByText('No repository connected through this provider.').waitFor();
    await expectCleanPage(webPage, 'git-provider');

    await page.goto('/git/repos/new');
    await page.getByRole('textbox', { name: 'Provider' }).fill('Scratch');
    await page.getByRole('textbox', { name: 'Owner' }).fill('bad owner');
    await page.getByRole('textbox', { name: 'Repository name' }).fill('gadgets');
    await page.getByRole('button', { name: 'Create' }).click();
    const owner = page.locator('.ui-field', { has: page.getByRole('textbox', { name: 'Owner' }) });
    await owner.locator('.ui-field-error').filter({ hasText: /owner/ }).waitFor();
    await expectCleanPage(webPage, 'git-repo-new', {
      allow: [/^400 POST \/api\/v1\/git\/repos$/, /owner/],
    });
    await page.getByRole('textbox', { name: 'Owner' }).fill('acme');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'acme/gadgets' }).waitFor();
    await page.getByText('No branches yet: commit a file to start one.').waitFor();

    // Deleting a provider still in use is refused, in the API's words.
    await page.goto('/git/providers/Scratch');
    await page.getByRole('link', { name: 'acme/gadgets' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').waitFor();
    await expectCleanPage(webPage, 'git-provider-in-use', {
      allow: [
        /^409 DELETE \/api\/v1\/git\/providers\/[\w-]+$/,
        /^Provider Scratch has 1 connected/,
      ],
    });

    await page.getByRole('link', { name: 'acme/gadgets' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const disconnect = page.getByRole('dialog');
    await disconnect.getByText(/^Disconnect acme\/gadgets\? .*nothing is deleted/).waitFor();
    await disconnect.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('heading', { name: 'Repositories' }).waitFor();
    const repos = await web.client.git.listRepos({});
    expect(repos.map((r) => r.fullName)).toEqual(['acme/widgets']);

    await page.goto('/git/providers/Scratch');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Providers' }).waitFor();
    await expect(
      web.client.git.getProvider({ path: { idOrName: 'Scratch' } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expectCleanPage(webPage, 'git-providers');
  });

  it('says NOT_FOUND for a repository that does not exist', async () => {
    const webPage = await web.open('/git/repos/no-such-repo');
    await webPage.page
      .getByRole('alert')
      .filter({ hasText: /not found|no repository/i })
      .waitFor();
    await expectCleanPage(webPage, 'git-repo-missing', {
      allow: [/^404 GET \/api\/v1\/git\/repos\/no-such-repo$/, /not found|no repository/i],
    });
  });
});

describe('cloning, branch protection and reviews', () => {
  it('shows the clone URL with a button copying it', async () => {
    const webPage = await web.open(`/git/repos/${repoId}`);
    const { page } = webPage;
    await page.getByText(/^http:\/\/127\.0\.0\.1:\d+\/git\/acme\/widgets\.git$/).waitFor();
    await page.getByText(/a platform API key \(git:read to clone/).waitFor();
    await page.getByRole('button', { name: 'Copy clone URL' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    await expectCleanPage(webPage, 'git-repo-clone');
  });

  it('protects a branch, and reviews decide whether a pull request merges', async () => {
    const webPage = await web.open(`/git/repos/${repoId}?tab=protection`);
    const { page } = webPage;
    await page.getByText('No protected branch.').waitFor();
    await page.getByRole('textbox', { name: 'Branch' }).fill('main');
    await page.getByRole('checkbox', { name: /Require a pull request/ }).check();
    await page.getByRole('spinbutton', { name: /Required approvals/ }).fill('1');
    await page.getByRole('button', { name: 'Protect branch' }).click();
    await page.getByRole('row').filter({ hasText: 'main' }).getByText('Required').waitFor();
    await expectCleanPage(webPage, 'git-repo-protection');
    const rules = await web.client.git.listProtections({ path: { id: repoId } });
    expect(rules).toMatchObject([
      { branch: 'main', requirePullRequest: true, requiredApprovals: 1 },
    ]);

    await page.goto(`/git/repos/${repoId}/pulls/1`);
    await page.getByText('Not mergeable yet: it needs 1 approval (it has 0).').waitFor();
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /a protected branch: it needs 1 approval/ })
      .waitFor();
    await page.getByRole('combobox', { name: 'Verdict' }).selectOption('APPROVE');
    await page.getByRole('textbox', { name: 'Comment' }).fill('Looks right');
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.getByRole('row').filter({ hasText: 'Looks right' }).getByText('approved').waitFor();
    await page.getByText('The rules of main hold.').waitFor();
    await expectCleanPage(webPage, 'git-pull-reviews', {
      allow: [/^409 POST \/api\/v1\/git\/repos\/[\w-]+\/pulls\/1\/merge$/, /protected branch/],
    });
    await page.getByRole('button', { name: 'Merge pull request' }).click();
    await page.getByText('merged', { exact: true }).waitFor();
    const pull = await web.client.git.getPull({ path: { id: repoId, number: 1 } });
    expect(pull).toMatchObject({ merged: true });
  });
});
