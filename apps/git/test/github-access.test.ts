import { keyCaller, person, type Json } from '@platform/testing';
import { githubWorld, type GithubWorld } from './github-setup';

// Issue 31 on a github repository, with the real identity service handing out delegated tokens:
// the token is always the caller's own (asked for as the caller), so committing, branching and
// opening pull requests are members' and GitHub decides the rest; changing the connection is its
// owners'.

let w: GithubWorld;
let repoId: string;
let hello: Json;
const ADA = 'ada@example.com';
const bob = person('bob@example.com');
const commit = (extra: Record<string, unknown> = {}) => ({
  branch: 'main',
  message: 'Forged',
  files: [{ path: 'forged.txt', content: 'x' }],
  ...extra,
});

beforeAll(async () => {
  w = await githubWorld();
  hello = w.fake.addRepo('octo', 'hello');
  const body = { name: 'gh', type: 'github', passportProviderId: 'github', baseUrl: w.fake.url };
  expect((await w.call('POST', '/providers', body)).status).toBe(201);
  const repo = await w.call('POST', '/repos', {
    providerId: 'gh',
    owner: 'octo',
    repoName: 'hello',
  });
  expect(repo.status).toBe(201);
  expect(repo.body.data).toMatchObject({ createdBy: ADA, team: null, connectedBy: ADA });
  repoId = repo.body.data.id;
});
afterAll(() => w.close());

describe("the attack of issue 31: committing in another person's name", () => {
  it('is 403 naming that person, before the identity service or GitHub is asked', async () => {
    const from = w.fake.seen.length;
    const main = hello.refs.get('main');
    const res = await w.call('POST', `/repos/${repoId}/commits`, commit({ user: ADA }), bob);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({
      code: 'FORBIDDEN',
      message: `bob@example.com may not act as ${ADA}: git uses only the caller's own delegated token and name (leave user out, or give your own email)`,
    });
    const pull = { user: ADA, title: 't', head: 'main', base: 'other' };
    expect((await w.call('POST', `/repos/${repoId}/pulls`, pull, bob)).status).toBe(403);
    const read = await w.call('GET', `/repos/${repoId}/files?user=${ADA}`, undefined, bob);
    expect(read.status).toBe(403);
    expect(w.fake.seen.slice(from)).toEqual([]);
    expect(hello.refs.get('main')).toBe(main);
  });
});

describe("collaborators' writes on GitHub: members', with their own token", () => {
  it("lets a member through to the identity service, which has only the member's token", async () => {
    const res = await w.call('POST', `/repos/${repoId}/commits`, commit(), bob);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/^bob@example.com has not connected github: /);
    const viewer = person('vera@example.com', 'viewer');
    const byViewer = await w.call('POST', `/repos/${repoId}/branches`, { name: 'v' }, viewer);
    expect(byViewer.body.error.message).toBe(
      'vera@example.com may not create git.branch: it needs the role member (or admin)',
    );
  });

  it("acts with a personal key as its owner, with the owner's own token", async () => {
    const key = keyCaller(['git:write'], { owner: ADA, name: 'ada-ci' });
    const from = w.fake.seen.length;
    const res = await w.call('POST', `/repos/${repoId}/branches`, { name: 'from-key' }, key);
    expect(res.status).toBe(201);
    expect(w.fake.seen[from].authorization).toMatch(new RegExp(`^(token|bearer) ${w.token()}$`));
    expect(hello.refs.has('from-key')).toBe(true);
  });

  it('refuses a key that is no person: there is no delegated token to use', async () => {
    const teamKey = keyCaller(['git:write'], { owner: null, team: 'payments', name: 'bot' });
    const res = await w.call('POST', `/repos/${repoId}/branches`, { name: 'bot' }, teamKey);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/^key:bot acts for no person/);
  });
});

describe("changes of the connection: its owners'", () => {
  it('refuses a member who does not own it, and changes nothing at GitHub', async () => {
    const from = w.fake.seen.length;
    const del = await w.call('DELETE', `/repos/${repoId}/branches/from-key`, undefined, bob);
    expect(del.body.error.message).toBe(
      `bob@example.com may not delete git.branch: it needs ownership (it belongs to ${ADA})`,
    );
    const hook = { url: 'https://example.com/hook' };
    expect((await w.call('POST', `/repos/${repoId}/webhooks`, hook, bob)).status).toBe(403);
    expect((await w.call('POST', `/repos/${repoId}/sync`, {}, bob)).status).toBe(403);
    expect((await w.call('DELETE', `/repos/${repoId}`, undefined, bob)).status).toBe(403);
    expect(w.fake.seen.slice(from)).toEqual([]);
    expect(hello.refs.has('from-key')).toBe(true);
    expect((await w.call('DELETE', `/repos/${repoId}/branches/from-key`)).status).toBe(200);
  });
});
