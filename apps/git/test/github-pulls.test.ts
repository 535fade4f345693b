import { serviceUnderTest, type Json } from '@platform/testing';
import { git } from '../src/index';
import { githubWorld, WEBHOOK_SECRET, type GithubWorld } from './github-setup';
import { PREFIX } from './helpers';

// Pull requests, webhooks and sync of a github repository, and github with authentication off.

let w: GithubWorld;
let repoId: string;
let hello: Json;
const ADA = 'ada@example.com';
beforeAll(async () => {
  w = await githubWorld();
  hello = w.fake.addRepo('octo', 'hello');
  const body = { name: 'gh', type: 'github', passportProviderId: 'github', baseUrl: w.fake.url };
  expect((await w.call('POST', '/providers', body)).status).toBe(201);
  const repo = await w.call('POST', '/repos', {
    providerId: 'gh',
    owner: 'octo',
    repoName: 'hello',
    user: ADA,
  });
  repoId = repo.body.data.id;
  for (const name of ['f1', 'f2', 'f3']) w.fake.push(hello, 'main', `${name}.txt`, name);
  for (const name of ['f1', 'f2', 'f3']) {
    hello.refs.set(name, hello.refs.get('main'));
    w.fake.push(hello, name, `${name}-only.txt`, name);
  }
});
afterAll(() => w.close());

describe('pull requests', () => {
  it('opens them, and a 422 from GitHub is a 400 naming the problem', async () => {
    for (const head of ['f1', 'f2', 'f3']) {
      const res = await w.call('POST', `/repos/${repoId}/pulls`, {
        user: ADA,
        title: `PR ${head}`,
        head,
        base: 'main',
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        title: `PR ${head}`,
        state: 'open',
        head,
        base: 'main',
      });
    }
    hello.refs.set('empty', hello.refs.get('main'));
    const none = await w.call('POST', `/repos/${repoId}/pulls`, {
      user: ADA,
      title: 'Nothing',
      head: 'empty',
      base: 'main',
    });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe(
      'GitHub refused (new pull request of octo/hello): Validation Failed (PullRequest custom No commits between main and empty)',
    );
  });

  it('lists them across pages, gets one, merges it, and a refused merge is 409', async () => {
    const from = w.fake.seen.length;
    const list = await w.call('GET', `/repos/${repoId}/pulls?state=all&user=${ADA}`);
    expect(list.body.data.map((p: Json) => p.number)).toEqual([3, 2, 1]);
    expect(w.fake.seen.slice(from).map((s) => s.query.get('page') ?? '1')).toEqual(['1', '2']);
    const one = await w.call('GET', `/repos/${repoId}/pulls/2?user=${ADA}`);
    expect(one.body.data).toMatchObject({
      number: 2,
      head: 'f2',
      merged: false,
      author: 'octocat',
    });

    const merged = await w.call('POST', `/repos/${repoId}/pulls/1/merge`, {
      user: ADA,
      method: 'squash',
      message: 'Ship f1',
    });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toEqual({
      merged: true,
      sha: hello.refs.get('main'),
      message: 'Pull Request successfully merged',
    });
    expect(w.fake.seen.at(-1)!.body).toEqual({ merge_method: 'squash', commit_title: 'Ship f1' });
    const closed = await w.call('GET', `/repos/${repoId}/pulls/1?user=${ADA}`);
    expect(closed.body.data).toMatchObject({ state: 'closed', merged: true });

    const again = await w.call('POST', `/repos/${repoId}/pulls/1/merge`, { user: ADA });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/Pull Request is not mergeable/);
    w.fake.failNext({
      method: 'PUT',
      path: /\/pulls\/2\/merge$/,
      answer: {
        status: 409,
        body: { message: 'Head branch was modified. Review and try the merge again.' },
      },
    });
    const moved = await w.call('POST', `/repos/${repoId}/pulls/2/merge`, { user: ADA });
    expect(moved.status).toBe(409);
    expect(moved.body.error.message).toMatch(/Head branch was modified/);
    expect((await w.call('GET', `/repos/${repoId}/pulls/9?user=${ADA}`)).status).toBe(404);
  });
});

describe('webhooks and sync', () => {
  it('registers a webhook at GitHub signed with GIT_WEBHOOK_SECRET, and deletes it there', async () => {
    const url = 'https://hooks.example.com/github';
    const made = await w.call('POST', `/repos/${repoId}/webhooks`, { user: ADA, url });
    expect(made.status).toBe(201);
    const [id, hook] = [...hello.hooks.entries()][0];
    expect(made.body.data).toMatchObject({ url, providerHookId: String(id) });
    expect(made.body.data.secret).toBeUndefined();
    expect(hook).toMatchObject({
      name: 'web',
      active: true,
      events: ['push', 'create', 'delete', 'pull_request', 'pull_request_review'],
      config: { url, content_type: 'json', secret: WEBHOOK_SECRET, insecure_ssl: '0' },
    });
    expect(JSON.stringify(made.body)).not.toContain(WEBHOOK_SECRET);
    const own = await w.call('POST', `/repos/${repoId}/webhooks`, {
      user: ADA,
      url: 'https://hooks.example.com/other',
      secret: 'a-secret-of-my-own-choosing',
    });
    expect(own.status).toBe(400);
    expect((await w.call('POST', `/repos/${repoId}/webhooks`, { user: ADA, url })).status).toBe(
      409,
    );

    const removed = await w.call('DELETE', `/repos/${repoId}/webhooks?user=${ADA}`);
    expect(removed.body.data.map((h: Json) => h.url)).toEqual([url]);
    expect(hello.hooks.size).toBe(0);
    expect(w.fake.seen.at(-1)).toMatchObject({
      method: 'DELETE',
      path: `/repos/octo/hello/hooks/${id}`,
    });
  });

  it('syncs default branch, visibility and status, and a repository GitHub lost is missing', async () => {
    Object.assign(hello, { default_branch: 'f3', private: true, archived: true });
    const synced = await w.call('POST', `/repos/${repoId}/sync`, { user: ADA });
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({
      defaultBranch: 'f3',
      private: true,
      status: 'archived',
    });
    w.fake.failNext({
      method: 'GET',
      path: /^\/repos\/octo\/hello$/,
      answer: { status: 404, body: { message: 'Not Found' } },
    });
    const lost = await w.call('POST', `/repos/${repoId}/sync`, { user: ADA });
    expect(lost.body.data).toMatchObject({ defaultBranch: 'f3', status: 'missing' });
    expect((await w.call('GET', `/repos/${repoId}`)).body.data.status).toBe('missing');
  });
});

it('with authentication off, a github call is 403: there are no delegated tokens', async () => {
  const off = await serviceUnderTest(git, { env: { GIT_GITHUB_URLS: w.fake.url }, jobs: false });
  try {
    const call = async (url: string, payload: object) => {
      const res = await off.app.inject({ method: 'POST', url: `${PREFIX}${url}`, payload });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const body = { name: 'gh', type: 'github', passportProviderId: 'github', baseUrl: w.fake.url };
    expect((await call('/providers', body)).status).toBe(201);
    const from = w.fake.seen.length;
    const res = await call('/repos', {
      providerId: 'gh',
      owner: 'octo',
      repoName: 'hello',
      user: ADA,
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      'Authentication is off, so there are no delegated tokens: gh (github) needs authentication on and ada@example.com connected through the identity service',
    );
    expect(w.fake.seen.length).toBe(from);
  } finally {
    await off.close();
  }
});
