import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { git } from '@platform/git';
import { listen, serviceUnderTest, type ServiceUnderTest } from '@platform/testing';
import { gitWorld, type GitWorld } from './git-world';

// Smart HTTP forwarded by the gateway to a standalone git service (GIT_PROXY_URL), as the rest of
// git is: the web UI's /git/ stays the gateway's, clones and a 20 MB push stream through.
// (Authentication off here: with it on, see the README on the proxied sign-in redirect.)

let standalone: ServiceUnderTest;
let world: GitWorld;
let dataDir = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'git-proxy-'));
  // The standalone service first (its address is the gateway's GIT_PROXY_URL), on its own
  // database; the gateway's in-process copy on another, unused while the target answers.
  standalone = await serviceUnderTest(git, { env: { GIT_DATA_DIR: dataDir } });
  const target = await listen(standalone.app);
  world = await gitWorld({ GIT_PROXY_URL: target, GIT_DATA_DIR: dataDir }, { auth: false });
  const post = (url: string, payload: object) =>
    standalone.app.inject({ method: 'POST', url: `/api/v1/git${url}`, payload });
  expect((await post('/providers', { name: 'local', type: 'local' })).statusCode).toBe(201);
  expect(
    (await post('/repos', { providerId: 'local', owner: 'acme', repoName: 'far' })).statusCode,
  ).toBe(201);
}, 60_000);
afterAll(async () => {
  await world?.close();
  await standalone?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps the web UI at /git/ and forwards git to the standalone service', async () => {
  const page = await fetch(`${world.url}/git/`);
  expect(page.headers.get('content-type')).toContain('text/html');
  const refs = await fetch(`${world.url}/git/acme/far.git/info/refs?service=git-upload-pack`);
  expect(refs.status).toBe(200);
  expect(refs.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
  expect(refs.headers.get('x-served-by')).toBeNull();
  const unknown = await fetch(
    `${world.url}/git/acme/nothing.git/info/refs?service=git-upload-pack`,
  );
  expect(unknown.status).toBe(404);
});

it('clones, pushes 20 MB and fetches through the proxy', async () => {
  const cwd = join(world.dir, 'far');
  await world.ok(world.dir, 'clone', '-q', world.remote('acme/far'), cwd);
  writeFileSync(join(cwd, 'big.bin'), randomBytes(20 * 1024 * 1024));
  await world.ok(cwd, 'add', 'big.bin');
  await world.ok(cwd, 'commit', '-q', '-m', 'Big');
  await world.ok(cwd, 'push', '-q', 'origin', 'main');
  await world.ok(world.dir, 'clone', '-q', world.remote('acme/far'), join(world.dir, 'again'));
  expect(await world.ok(join(world.dir, 'again'), 'log', '--format=%s')).toBe('Big');
}, 60_000);
