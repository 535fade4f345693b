import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import { git } from '../src/index';
import { cloneOf, gitCli, PREFIX, tempDir } from './helpers';

let svc: ServiceUnderTest;
let api: JsonApi;
let data: ReturnType<typeof tempDir>;
let work: ReturnType<typeof tempDir>;
let providerId: string;
let repoId: string;
beforeAll(async () => {
  data = tempDir('git-data-');
  work = tempDir('git-work-');
  svc = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
  api = jsonApi(svc.app, PREFIX);
  const provider = await api.post('/providers', { name: 'Local', type: 'local' });
  expect(provider.status).toBe(201);
  providerId = provider.body.data.id;
  const repo = await api.post('/repos', {
    providerId: 'local',
    owner: 'acme',
    repoName: 'widgets',
  });
  expect(repo.status).toBe(201);
  repoId = repo.body.data.id;
});
afterAll(async () => {
  await svc.close();
  data.remove();
  work.remove();
});

const gitdir = () => join(data.dir, providerId, 'acme', 'widgets.git');
const clone = (name: string) => cloneOf(gitdir(), work.dir, name);

describe('providers and repositories', () => {
  it('registers a local provider and creates a bare repository on disk', async () => {
    const repo = (await api.get('/repos/ACME%2Fwidgets')).body.data;
    expect(repo).toMatchObject({
      id: repoId,
      name: 'acme/widgets',
      fullName: 'acme/widgets',
      owner: 'acme',
      repoName: 'widgets',
      providerId,
      defaultBranch: 'main',
      status: 'active',
      private: true,
      // Its clone URL (smart HTTP), at the address the request came to.
      htmlUrl: 'http://localhost:80/git/acme/widgets.git',
      connectedBy: 'anonymous',
    });
    expect(gitCli(gitdir(), 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(
      (await api.post('/repos', { providerId, owner: 'acme', repoName: 'widgets' })).status,
    ).toBe(409);
    expect((await api.get('/providers')).body.data.map((p: { name: string }) => p.name)).toEqual([
      'Local',
    ]);
  });
});

describe('commits, branches, files, compare', () => {
  let first: string;
  it('commits many files at once on an empty repository, seen by a clone', async () => {
    const res = await api.post(`/repos/${repoId}/commits`, {
      branch: 'main',
      message: 'First commit',
      user: 'ada@example.com',
      files: [
        { path: 'README.md', content: '# Widgets\n' },
        { path: 'src/a.txt', content: 'a\n' },
        {
          path: 'src/deep/b.bin',
          content: Buffer.from([0, 1, 2, 255]).toString('base64'),
          encoding: 'base64',
        },
      ],
    });
    expect(res.status).toBe(201);
    first = res.body.data.sha;
    expect(res.body.data).toMatchObject({
      message: 'First commit',
      parents: [],
      author: { name: 'ada', email: 'ada@example.com' },
      files: [
        { path: 'README.md', status: 'added' },
        { path: 'src/a.txt', status: 'added' },
        { path: 'src/deep/b.bin', status: 'added' },
      ],
    });
    const dir = clone('first');
    expect(gitCli(dir, 'log', '--format=%H %an <%ae> %s')).toBe(
      `${first} ada <ada@example.com> First commit`,
    );
    expect(readFileSync(join(dir, 'src/a.txt'), 'utf8')).toBe('a\n');
    expect([...readFileSync(join(dir, 'src/deep/b.bin'))]).toEqual([0, 1, 2, 255]);
    expect(gitCli(gitdir(), 'fsck', '--strict')).toBe('');
  });

  it('creates a branch, commits on it (a change and a deletion), and compares', async () => {
    const branch = await api.post(`/repos/${repoId}/branches`, { name: 'feature/x' });
    expect(branch.status).toBe(201);
    expect(branch.body.data).toEqual({
      name: 'feature/x',
      sha: first,
      protected: false,
      default: false,
    });
    expect((await api.post(`/repos/${repoId}/branches`, { name: 'feature/x' })).status).toBe(409);
    expect((await api.post(`/repos/${repoId}/branches`, { name: 'bad..name' })).status).toBe(400);
    expect((await api.post(`/repos/${repoId}/branches`, { name: 'y', from: 'nope' })).status).toBe(
      404,
    );

    const change = await api.post(`/repos/${repoId}/commits`, {
      branch: 'feature/x',
      message: 'Change a, drop b',
      files: [
        { path: 'src/a.txt', content: 'a2\n' },
        { path: 'src/deep/b.bin', content: null },
      ],
    });
    expect(change.status).toBe(201);
    expect(change.body.data.files).toEqual([
      { path: 'src/a.txt', status: 'modified' },
      { path: 'src/deep/b.bin', status: 'removed' },
    ]);
    const got = await api.get(`/repos/${repoId}/commits/${change.body.data.sha}`);
    expect(got.body.data.parents).toEqual([first]);
    expect(got.body.data.files).toHaveLength(2);

    const branches = (await api.get(`/repos/${repoId}/branches`)).body.data;
    expect(branches.map((b: { name: string; default: boolean }) => [b.name, b.default])).toEqual([
      ['feature/x', false],
      ['main', true],
    ]);
    const commits = await api.get(`/repos/${repoId}/commits?branch=feature/x&limit=1`);
    expect(commits.body.data.map((c: { message: string }) => c.message)).toEqual([
      'Change a, drop b',
    ]);

    const cmp = await api.get(`/repos/${repoId}/compare/main...feature/x`);
    expect(cmp.body.data).toMatchObject({
      status: 'ahead',
      aheadBy: 1,
      behindBy: 0,
      mergeBase: first,
    });
    expect(cmp.body.data.files.map((f: { path: string }) => f.path)).toEqual([
      'src/a.txt',
      'src/deep/b.bin',
    ]);
    expect((await api.get(`/repos/${repoId}/compare/main..feature/x`)).status).toBe(400);
  });

  it('lists directories and reads files at a ref', async () => {
    const root = (await api.get(`/repos/${repoId}/files`)).body.data;
    expect(root.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
      'file:README.md',
      'dir:src',
    ]);
    const src = (await api.get(`/repos/${repoId}/files?path=src&ref=feature/x`)).body.data;
    expect(src.map((e: { path: string }) => e.path)).toEqual(['src/a.txt']);
    const file = await api.get(`/repos/${repoId}/files/src/a.txt?ref=feature/x`);
    expect(file.body.data).toMatchObject({
      path: 'src/a.txt',
      encoding: 'utf8',
      content: 'a2\n',
      size: 3,
    });
    const bin = await api.get(`/repos/${repoId}/files/src/deep/b.bin`);
    expect(bin.body.data).toMatchObject({ encoding: 'base64', content: 'AAEC/w==' });
    expect((await api.get(`/repos/${repoId}/files/missing.txt`)).status).toBe(404);
    expect((await api.get(`/repos/${repoId}/files?path=src/../..`)).status).toBe(400);
  });

  it('refuses a commit on a missing branch and a deletion of a missing file, writing nothing', async () => {
    const before = gitCli(gitdir(), 'rev-parse', 'main');
    const missing = await api.post(`/repos/${repoId}/commits`, {
      branch: 'nope',
      message: 'm',
      files: [{ path: 'x', content: 'x' }],
    });
    expect(missing.status).toBe(404);
    const gone = await api.post(`/repos/${repoId}/commits`, {
      branch: 'main',
      message: 'm',
      files: [
        { path: 'x', content: 'x' },
        { path: 'ghost', content: null },
      ],
    });
    expect(gone.status).toBe(400);
    expect(gone.body.error.message).toMatch(/files\[1\]\.path ghost does not exist/);
    expect(gitCli(gitdir(), 'rev-parse', 'main')).toBe(before);
  });
});

describe('pull requests', () => {
  it('opens, merges with a merge commit seen by a clone, and refuses a second merge', async () => {
    const pr = await api.post(`/repos/${repoId}/pulls`, {
      title: 'Feature X',
      head: 'feature/x',
      base: 'main',
    });
    expect(pr.status).toBe(201);
    expect(pr.body.data).toMatchObject({
      number: 1,
      state: 'open',
      merged: false,
      head: 'feature/x',
      base: 'main',
    });
    expect(
      (await api.get(`/repos/${repoId}/pulls`)).body.data.map((p: { number: number }) => p.number),
    ).toEqual([1]);
    const merge = await api.post(`/repos/${repoId}/pulls/1/merge`, {});
    expect(merge.status).toBe(200);
    const dir = clone('merged');
    expect(gitCli(dir, 'log', '-1', '--format=%H %P')).toBe(
      `${merge.body.data.sha} ${gitCli(dir, 'rev-parse', 'HEAD^1')} ${gitCli(dir, 'rev-parse', 'origin/feature/x')}`,
    );
    expect(readFileSync(join(dir, 'src/a.txt'), 'utf8')).toBe('a2\n');
    expect(existsSync(join(dir, 'src/deep/b.bin'))).toBe(false);
    expect((await api.get(`/repos/${repoId}/pulls/1`)).body.data).toMatchObject({
      state: 'closed',
      merged: true,
      mergeCommitSha: merge.body.data.sha,
    });
    expect((await api.get(`/repos/${repoId}/pulls`)).body.data).toEqual([]);
    const again = await api.post(`/repos/${repoId}/pulls/1/merge`, {});
    expect(again.status).toBe(409);
    expect((await api.get(`/repos/${repoId}/pulls/9`)).status).toBe(404);
  });

  it('answers 409 for a conflict, saying which files, and leaves the base as it was', async () => {
    await api.post(`/repos/${repoId}/branches`, { name: 'left' });
    await api.post(`/repos/${repoId}/commits`, {
      branch: 'left',
      message: 'left',
      files: [{ path: 'README.md', content: 'left\n' }],
    });
    await api.post(`/repos/${repoId}/commits`, {
      branch: 'main',
      message: 'main',
      files: [{ path: 'README.md', content: 'main\n' }],
    });
    const before = gitCli(gitdir(), 'rev-parse', 'main');
    const pr = await api.post(`/repos/${repoId}/pulls`, {
      title: 'Left',
      head: 'left',
      base: 'main',
    });
    expect(pr.body.data.number).toBe(2);
    const merge = await api.post(`/repos/${repoId}/pulls/2/merge`, { method: 'merge' });
    expect(merge.status).toBe(409);
    expect(merge.body.error.message).toMatch(/conflicting changes in README.md/);
    expect(gitCli(gitdir(), 'rev-parse', 'main')).toBe(before);
    expect((await api.get(`/repos/${repoId}/pulls/2`)).body.data.state).toBe('open');
  });

  it('squashes into one commit with a single parent', async () => {
    await api.post(`/repos/${repoId}/branches`, { name: 'squashme' });
    await api.post(`/repos/${repoId}/commits`, {
      branch: 'squashme',
      message: 's1',
      files: [{ path: 's.txt', content: '1' }],
    });
    await api.post(`/repos/${repoId}/commits`, {
      branch: 'squashme',
      message: 's2',
      files: [{ path: 's.txt', content: '2' }],
    });
    const pr = await api.post(`/repos/${repoId}/pulls`, {
      title: 'Squash',
      head: 'squashme',
      base: 'main',
    });
    const merge = await api.post(`/repos/${repoId}/pulls/${pr.body.data.number}/merge`, {
      method: 'squash',
      message: 'Squashed',
    });
    expect(merge.status).toBe(200);
    const dir = clone('squashed');
    expect(gitCli(dir, 'log', '-1', '--format=%s|%P')).toMatch(/^Squashed\|[0-9a-f]{40}$/);
    expect(readFileSync(join(dir, 's.txt'), 'utf8')).toBe('2');
    const rebase = await api.post(`/repos/${repoId}/pulls/1/merge`, { method: 'rebase' });
    expect(rebase.status).toBe(400);
  });

  it('deletes a branch but never the default one', async () => {
    expect((await api.del(`/repos/${repoId}/branches/left`)).status).toBe(200);
    expect((await api.del(`/repos/${repoId}/branches/main`)).status).toBe(409);
    expect((await api.del(`/repos/${repoId}/branches/left`)).status).toBe(404);
    expect(gitCli(gitdir(), 'branch', '--list', 'left')).toBe('');
  });
});
