import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { jsonApi, serviceUnderTest, type JsonApi, type ServiceUnderTest } from '@platform/testing';
import { git } from '../src/index';
import { gitCli, PREFIX, tempDir } from './helpers';

let svc: ServiceUnderTest;
let api: JsonApi;
let data: ReturnType<typeof tempDir>;
beforeAll(async () => {
  data = tempDir('git-providers-');
  svc = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
  api = jsonApi(svc.app, PREFIX);
  expect((await api.post('/providers', { name: 'Local', type: 'local' })).status).toBe(201);
  expect(
    (await api.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'w' })).status,
  ).toBe(201);
});
afterAll(async () => {
  await svc.close();
  data.remove();
});

describe('providers and repository names', () => {
  it.each([
    [{ providerId: 'local', owner: '..', repoName: 'x' }, /owner/],
    [{ providerId: 'local', owner: 'a/b', repoName: 'x' }, /owner/],
    [{ providerId: 'local', owner: 'a', repoName: '.git' }, /repoName/],
  ])('refuses a path-like owner or name %j', async (body, message) => {
    const res = await api.post('/repos', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('refuses github providers without passportProviderId, and deleting a provider in use', async () => {
    const gh = await api.post('/providers', { name: 'gh', type: 'github' });
    expect(gh.body.error.message).toMatch(/passportProviderId is required/);
    const plain = await api.post('/providers', {
      name: 'gh',
      type: 'github',
      passportProviderId: 'p',
      baseUrl: 'http://example.com',
    });
    expect(plain.body.error.message).toMatch(/must be https \(http only on localhost\)/);
    const unlisted = await api.post('/providers', {
      name: 'gh',
      type: 'github',
      passportProviderId: 'p',
      baseUrl: 'http://127.0.0.1:1',
    });
    expect(unlisted.status).toBe(400);
    expect(unlisted.body.error.message).toMatch(/not allowed: .* GIT_GITHUB_URLS/);
    const del = await api.del('/providers/local');
    expect(del.status).toBe(409);
    expect(del.body.error.message).toMatch(/1 connected repositories/);
  });
});

describe('sync of a local repository', () => {
  it('reads the default branch from HEAD, and answers missing while the directory is gone', async () => {
    const repo = (await api.get('/repos/acme%2Fw')).body.data;
    const gitdir = join(data.dir, repo.providerId, 'acme', 'w.git');
    gitCli(gitdir, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    const synced = await api.post('/repos/acme%2Fw/sync', {});
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({ defaultBranch: 'trunk', status: 'active' });
    renameSync(gitdir, `${gitdir}.away`);
    const gone = await api.post('/repos/acme%2Fw/sync');
    expect(gone.body.data).toMatchObject({ defaultBranch: 'trunk', status: 'missing' });
    renameSync(`${gitdir}.away`, gitdir);
    const back = await api.post(`/repos/${repo.id}/sync`, {});
    expect(back.body.data.status).toBe('active');
    expect((await api.get('/repos/acme%2Fw')).body.data.status).toBe('active');
    expect((await api.post('/repos/nope%2Fnope/sync', {})).status).toBe(404);
  });
});
