import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { newId } from '@platform/core';
import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import type { GitDatabase } from '../src/database';
import { git } from '../src/index';
import { checkRef } from '../src/domain/backends/backend';
import { insertRepository } from '../src/repositories/repos';
import { gitCli, PREFIX, tempDir } from './helpers';

// Review finding 1: every ref reaches git (isomorphic-git reads `<gitdir>/<ref>`), so one rule
// (REF_PATTERN, git check-ref-format) refuses what could leave the repository, for both providers.
let svc: ServiceUnderTest;
let api: JsonApi;
const data = tempDir('git-refs-');
const fifo = join(data.dir, 'fifo');
let localId: string;
let githubId: string;
beforeAll(async () => {
  execFileSync('mkfifo', [fifo]); // read, it would never answer: a hang, not an error
  svc = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
  api = jsonApi(svc.app, PREFIX);
  expect((await api.post('/providers', { name: 'Local', type: 'local' })).status).toBe(201);
  const repo = await api.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'refs' });
  localId = repo.body.data.id;
  const commit = await api.post(`/repos/${localId}/commits`, {
    branch: 'main',
    message: 'One',
    files: [{ path: 'a.txt', content: 'a\n' }],
  });
  expect(commit.status).toBe(201);
  const gh = await api.post('/providers', { name: 'gh', type: 'github', passportProviderId: 'p' });
  expect(gh.status).toBe(201);
  // Connected without GitHub: a refused ref must be refused before any token or call.
  const row = await insertRepository(svc.db.schema<GitDatabase>('git'), {
    id: newId(),
    name: 'octo/hub',
    provider_id: gh.body.data.id,
    owner: 'octo',
    repo_name: 'hub',
    html_url: null,
    default_branch: 'main',
    connected_by: 'test',
    status: 'active',
    private: false,
    created_by: null,
    team: null,
  });
  githubId = row.id;
}, 30_000);
afterAll(async () => {
  await svc.close();
  data.remove();
});

const up = (path: string) =>
  `${'..%2F'.repeat(12)}${path.replace(/^\//, '').replace(/\//g, '%2F')}`;

describe('one ref rule', () => {
  it.each([
    'main',
    'feature/x-1',
    'v1.0',
    'a'.repeat(40).replace(/a/g, 'f'),
    'HEAD',
    'user@host',
    'naïve',
  ])('accepts %s', (ref) => expect(checkRef(ref)).toBe(ref));

  it.each([
    '../HEAD',
    '/etc/passwd',
    '-rf',
    'a//b',
    'a/.hidden',
    '.dot',
    'x.lock',
    'x.lock/y',
    'trailing/',
    'trailing.',
    '@',
    'a@{1}',
    'sp ace',
    'tab\t',
    'nul\u0000',
    'del\u007f',
    'a~1',
    'a^2',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    '',
    'x'.repeat(251),
  ])('refuses %j, naming the field', (ref) =>
    expect(() => checkRef(ref, 'head')).toThrow(/^head .* is not a valid ref name/),
  );
});

describe.each([
  ['local', () => localId],
  ['github', () => githubId],
])('refs of a %s repository', (_kind, id) => {
  it('refuses compare refs that climb out (a 1 GB /dev/zero, a FIFO), quickly, naming the side', async () => {
    for (const [path, field] of [
      [`${up('/dev/zero')}...main`, 'base'],
      [`main...${up(fifo)}`, 'head'],
      [`main...${'..%2F'.repeat(2)}HEAD`, 'head'],
    ]) {
      const started = Date.now();
      const res = await api.get(`/repos/${id()}/compare/${path}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field} .* is not a valid ref name`));
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it.each([
    ['DELETE branch', 'del', `/branches/..%2F..%2FHEAD`, undefined, /^name /],
    ['DELETE branch to a FIFO', 'del', `/branches/${up(fifo)}`, undefined, /^name /],
    ['POST branch from', 'post', '/branches', { name: 'ok', from: '../../HEAD' }, /^from /],
    ['POST branch name', 'post', '/branches', { name: 'a..b' }, /^name /],
    ['commits branch', 'get', `/commits?branch=${up('/dev/zero')}`, undefined, /^branch /],
    ['files ref', 'get', `/files?ref=..%2Fconfig`, undefined, /^ref /],
    ['file ref', 'get', `/files/a.txt?ref=-x`, undefined, /^ref /],
    ['pull head', 'post', '/pulls', { title: 't', head: '../x', base: 'main' }, /^head /],
    ['pull base', 'post', '/pulls', { title: 't', head: 'x', base: 'a b' }, /^base /],
    [
      'commit branch',
      'post',
      '/commits',
      { branch: 'x/', message: 'm', files: [{ path: 'a', content: 'a' }] },
      /^branch /,
    ],
  ] as const)('refuses a bad ref: %s', async (_, method, path, body, field) => {
    const url = `/repos/${id()}${path}`;
    const res = method === 'post' ? await api.post(url, body) : await api[method](url);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(field);
  });
});

describe('after refused refs', () => {
  it('leaves the local repository as it was and writable (no lock held)', async () => {
    const gitdir = join(data.dir, (await api.get('/providers/local')).body.data.id, 'acme');
    const res = await api.post(`/repos/${localId}/branches`, { name: 'feature/ok' });
    expect(res.status).toBe(201);
    expect((await api.del(`/repos/${localId}/branches/feature%2Fok`)).status).toBe(200);
    expect(gitCli(join(gitdir, 'refs.git'), 'branch', '--list').trim()).toBe('* main');
    expect((await api.get(`/repos/${localId}/compare/main...main`)).body.data.status).toBe(
      'identical',
    );
  });
});

describe('github owner and repository names (finding 4)', () => {
  it.each([
    [{ owner: '..', repoName: 'x' }, /^owner /],
    [{ owner: '.', repoName: 'x' }, /^owner /],
    [{ owner: 'octo', repoName: '..' }, /^repoName /],
    [{ owner: 'octo', repoName: '...' }, /^repoName /],
  ])('refuses %j with 400 before GitHub is called', async (names, message) => {
    const res = await api.post('/repos', { providerId: 'gh', user: 'a@example.com', ...names });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('lets .github through the name check (a real GitHub repository name)', async () => {
    const res = await api.post('/repos', {
      providerId: 'gh',
      user: 'a@example.com',
      owner: 'octo',
      repoName: '.github',
    });
    // Past the names: refused only because this test runs without authentication.
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/Authentication is off/);
  });
});
