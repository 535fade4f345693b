import { person, type Json } from '@platform/testing';
import { githubWorld, type GithubWorld } from './github-setup';

// The github provider end to end: passport's real delegated token, octokit, a local server
// speaking GitHub's REST wire format (see fake-github.ts, pages of 2 items).

let w: GithubWorld;
let repoId: string;
let hello: Json;
beforeAll(async () => {
  w = await githubWorld();
  hello = w.fake.addRepo('octo', 'hello');
  const provider = await w.call('POST', '/providers', {
    name: 'gh',
    type: 'github',
    passportProviderId: 'github',
    baseUrl: `${w.fake.url}/`,
  });
  expect(provider.status).toBe(201);
  expect(provider.body.data.baseUrl).toBe(w.fake.url);
});
afterAll(() => w.close());

const seenSince = (from: number) => w.fake.seen.slice(from);
const calls = (from: number) => seenSince(from).map((s) => `${s.method} ${s.path}`);

describe('providers and the delegated token', () => {
  it('sends tokens only to api.github.com and GIT_GITHUB_URLS', async () => {
    for (const baseUrl of ['https://evil.example.com', 'http://ghe.example.com/api/v3']) {
      const res = await w.call('POST', '/providers', {
        name: 'other',
        type: 'github',
        passportProviderId: 'github',
        baseUrl,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/GIT_GITHUB_URLS|https/);
    }
    const listed = await w.call('POST', '/providers', {
      name: 'ghe',
      type: 'github',
      passportProviderId: 'github',
      baseUrl: 'https://GHE.example.com/api/v3/',
    });
    expect(listed.body.data.baseUrl).toBe('https://ghe.example.com/api/v3');
    const dotcom = await w.call('POST', '/providers', {
      name: 'dotcom',
      type: 'github',
      passportProviderId: 'github',
    });
    expect(dotcom.body.data.baseUrl).toBe('https://api.github.com');
  });

  it("connects a repository with the user's delegated token, which GitHub receives", async () => {
    const from = w.fake.seen.length;
    const res = await w.call('POST', '/repos', {
      providerId: 'gh',
      owner: 'octo',
      repoName: 'hello',
      user: 'ada@example.com',
    });
    expect(res.status).toBe(201);
    repoId = res.body.data.id;
    expect(res.body.data).toMatchObject({
      fullName: 'octo/hello',
      htmlUrl: 'https://github.example/octo/hello',
      defaultBranch: 'main',
      private: false,
      status: 'active',
      connectedBy: 'ada@example.com',
    });
    expect(calls(from)).toEqual(['GET /repos/octo/hello']);
    expect(seenSince(from)[0].authorization).toMatch(new RegExp(`^(token|bearer) ${w.token()}$`));
    expect(w.token().length).toBeGreaterThan(20);
  });

  it('acts as the caller without user; refuses a stranger to GitHub, and another person', async () => {
    expect((await w.call('GET', `/repos/${repoId}/branches`)).status).toBe(200);
    const from = w.fake.seen.length;
    const bob = person('bob@example.com');
    const never = await w.call('GET', `/repos/${repoId}/branches`, undefined, bob);
    expect(never.status).toBe(403);
    expect(never.body.error.message).toBe(
      'bob@example.com has not connected github: sign in as bob@example.com and open /api/v1/passport/providers/github/connect to connect it',
    );
    const other = await w.call(
      'GET',
      `/repos/${repoId}/branches?user=ada@example.com`,
      undefined,
      bob,
    );
    expect(other.status).toBe(403);
    expect(other.body.error.message).toMatch(/^bob@example.com may not act as ada@example.com: /);
    expect(calls(from)).toEqual([]);
  });
});

describe('branches, commits, files, compare', () => {
  it('creates branches and lists them all, following Link pagination', async () => {
    for (const name of ['b1', 'b2', 'feature'])
      expect(
        (await w.call('POST', `/repos/${repoId}/branches`, { name, user: 'ada@example.com' }))
          .status,
      ).toBe(201);
    const again = await w.call('POST', `/repos/${repoId}/branches`, {
      name: 'b1',
      user: 'ada@example.com',
    });
    expect(again.status).toBe(409);
    const from = w.fake.seen.length;
    const list = await w.call('GET', `/repos/${repoId}/branches?user=ada@example.com`);
    expect(list.body.data.map((b: Json) => [b.name, b.default, b.protected])).toEqual([
      ['main', true, true],
      ['b1', false, false],
      ['b2', false, false],
      ['feature', false, false],
    ]);
    expect(seenSince(from).map((s) => s.query.get('page') ?? '1')).toEqual(['1', '2']);
    expect(
      (await w.call('DELETE', `/repos/${repoId}/branches/b2?user=ada@example.com`)).status,
    ).toBe(200);
    expect([...hello.refs.keys()]).toEqual(['main', 'b1', 'feature']);
  });

  it('commits many files at once through the git data API', async () => {
    const before = hello.refs.get('feature');
    const from = w.fake.seen.length;
    const res = await w.call('POST', `/repos/${repoId}/commits`, {
      user: 'ada@example.com',
      branch: 'feature',
      message: 'Two files, one gone',
      files: [
        { path: 'src/a.txt', content: 'a\n' },
        { path: 'bin.dat', content: Buffer.from([0, 255]).toString('base64'), encoding: 'base64' },
        { path: 'README.md', content: null },
      ],
    });
    expect(res.status).toBe(201);
    const sha = res.body.data.sha;
    expect(calls(from)).toEqual([
      'GET /repos/octo/hello/git/ref/heads%2Ffeature',
      `GET /repos/octo/hello/git/commits/${before}`,
      'POST /repos/octo/hello/git/blobs',
      'POST /repos/octo/hello/git/blobs',
      'POST /repos/octo/hello/git/trees',
      'POST /repos/octo/hello/git/commits',
      'PATCH /repos/octo/hello/git/refs/heads%2Ffeature',
      `GET /repos/octo/hello/commits/${sha}`,
    ]);
    const sent = seenSince(from).map((s) => s.body as Json);
    expect(sent[2]).toEqual({ content: 'a\n', encoding: 'utf-8' });
    expect(sent[3]).toEqual({ content: 'AP8=', encoding: 'base64' });
    expect(sent[4].tree.at(-1)).toEqual({
      path: 'README.md',
      mode: '100644',
      type: 'blob',
      sha: null,
    });
    expect(sent[5].parents).toEqual([before]);
    expect(sent[6]).toEqual({ sha, force: false });
    expect(hello.refs.get('feature')).toBe(sha);
    expect([...w.fake.filesOf(sha).keys()].sort()).toEqual(['bin.dat', 'src/a.txt']);
    expect(res.body.data.files).toEqual([
      { path: 'README.md', status: 'removed', additions: 0, deletions: 1 },
      { path: 'bin.dat', status: 'added', additions: 1, deletions: 0 },
      { path: 'src/a.txt', status: 'added', additions: 1, deletions: 0 },
    ]);
  });

  it('answers 409 when the branch moved during the commit, and leaves the other push', async () => {
    let theirs = '';
    w.fake.failNext({
      method: 'POST',
      path: /\/git\/commits$/,
      before: () => (theirs = w.fake.push(hello, 'feature', 'theirs.txt', 'theirs')),
    });
    const res = await w.call('POST', `/repos/${repoId}/commits`, {
      user: 'ada@example.com',
      branch: 'feature',
      message: 'Lost race',
      files: [{ path: 'mine.txt', content: 'mine' }],
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /feature of octo\/hello moved while the commit was made/,
    );
    expect(hello.refs.get('feature')).toBe(theirs);
  });

  it('lists commits across pages, reads files and compares', async () => {
    const from = w.fake.seen.length;
    const list = await w.call(
      'GET',
      `/repos/${repoId}/commits?branch=feature&limit=2&offset=1&user=ada@example.com`,
    );
    expect(list.body.data.map((c: Json) => c.message)).toEqual(['Two files, one gone', 'Initial']);
    expect(seenSince(from).map((s) => s.query.get('page') ?? '1')).toEqual(['1', '2']);
    const q = '?ref=feature&user=ada@example.com';
    const root = await w.call('GET', `/repos/${repoId}/files${q}`);
    expect(root.body.data.map((e: Json) => `${e.type}:${e.path}`).sort()).toEqual([
      'dir:src',
      'file:bin.dat',
      'file:theirs.txt',
    ]);
    const file = await w.call('GET', `/repos/${repoId}/files/src/a.txt${q}`);
    expect(file.body.data).toMatchObject({
      path: 'src/a.txt',
      encoding: 'utf8',
      content: 'a\n',
      size: 2,
    });
    const bin = await w.call('GET', `/repos/${repoId}/files/bin.dat${q}`);
    expect(bin.body.data).toMatchObject({ encoding: 'base64', content: 'AP8=' });
    const cmp = await w.call('GET', `/repos/${repoId}/compare/main...feature?user=ada@example.com`);
    expect(cmp.body.data).toMatchObject({ status: 'ahead', aheadBy: 2, behindBy: 0 });
    expect(cmp.body.data.commits.map((c: Json) => c.message)).toEqual([
      'Two files, one gone',
      'push theirs.txt',
    ]);
    expect((await w.call('GET', `/repos/${repoId}/files/nope.txt${q}`)).status).toBe(404);
  });
});

describe("GitHub's failures, in the envelope", () => {
  const branches = () => w.call('GET', `/repos/${repoId}/branches?user=ada@example.com`);

  it('a primary rate limit (403, x-ratelimit-remaining 0) is 429 with Retry-After', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    w.fake.failNext({
      method: 'GET',
      path: /\/branches$/,
      answer: {
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
        body: { message: 'API rate limit exceeded for user ID 1.' },
      },
    });
    const res = await branches();
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(100);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(121);
    expect(res.body.error.message).toMatch(/retry after \d+ s, at 20/);
  });

  it('a 429 with retry-after is 429 with the same Retry-After', async () => {
    w.fake.failNext({
      method: 'GET',
      path: /\/branches$/,
      answer: {
        status: 429,
        headers: { 'retry-after': '30' },
        body: { message: 'secondary rate limit' },
      },
    });
    const res = await branches();
    expect([res.status, res.headers['retry-after']]).toEqual([429, '30']);
  });

  it('a 5xx is 502, a refused token 403, a 422 a 400 naming the problem', async () => {
    w.fake.failNext({
      method: 'GET',
      path: /\/branches$/,
      answer: { status: 503, body: { message: 'down' } },
    });
    const down = await branches();
    expect([down.status, down.body.error.code]).toEqual([502, 'BAD_GATEWAY']);
    expect(down.body.error.message).toMatch(/GitHub failed \(branches of octo\/hello\): HTTP 503/);
    w.fake.failNext({
      method: 'GET',
      path: /\/branches$/,
      answer: { status: 401, body: { message: 'Bad credentials' } },
    });
    const bad = await branches();
    expect(bad.status).toBe(403);
    expect(bad.body.error.message).toMatch(/Bad credentials; connect the provider again/);
    const invalid = await w.call('POST', `/repos/${repoId}/branches`, {
      name: 'x',
      from: '0123456789012345678901234567890123456789',
      user: 'ada@example.com',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/Object does not exist/);
  });
});
