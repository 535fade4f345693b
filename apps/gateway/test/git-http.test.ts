import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { sleep } from '@platform/testing';
import { ADMIN, ANN, BOB, gitWorld, type GitWorld } from './git-world';

// Smart HTTP through the gateway with the real `git` command: clone, push, fetch, a shallow
// clone, protocol v2, a 50 MB push, and the refusals (no key, a wrong key, a reader, a stranger).

let world: GitWorld;
const keys = { ann: '', annRead: '', bob: '' };
let repoId = '';

beforeAll(async () => {
  world = await gitWorld();
  const created = await world.call(ADMIN, 'POST', '/api/v1/git/providers', {
    name: 'local',
    type: 'local',
  });
  expect(created.status).toBe(201);
  const repo = await world.call(ANN, 'POST', '/api/v1/git/repos', {
    providerId: 'local',
    owner: 'acme',
    repoName: 'App',
  });
  expect(repo.status).toBe(201);
  repoId = (repo.body.data as { id: string }).id;
  keys.ann = await world.key(ANN, ['git:write']);
  keys.annRead = await world.key(ANN, ['git:read']);
  keys.bob = await world.key(BOB, ['git:write']);
}, 60_000);
afterAll(() => world?.close());

const work = (name: string) => join(world.dir, name);
async function commitFile(cwd: string, file: string, content: string | Buffer, message: string) {
  writeFileSync(join(cwd, file), content);
  await world.ok(cwd, 'add', file);
  await world.ok(cwd, 'commit', '-q', '-m', message);
}

it('clones the empty repository, pushes, fetches and clones again over HTTP', async () => {
  const remote = world.remote('acme/App', keys.ann);
  const clone = await world.git(world.dir, 'clone', remote, work('ann'));
  expect(clone.status).toBe(0);
  expect(clone.stderr).toContain('empty repository');
  await commitFile(work('ann'), 'README.md', '# App\n', 'First');
  await commitFile(work('ann'), 'two.txt', 'two\n', 'Second');
  await world.ok(work('ann'), 'push', '-q', 'origin', 'main');

  const listed = await world.call(ANN, 'GET', `/api/v1/git/repos/${repoId}/commits?branch=main`);
  expect((listed.body.data as Array<{ message: string }>).map((c) => c.message.trim())).toEqual([
    'Second',
    'First',
  ]);

  // Another clone (any case in the path, a read key), then a fetch of a new commit.
  const reader = world.remote('ACME/app', keys.annRead);
  await world.ok(world.dir, 'clone', '-q', reader, work('reader'));
  expect(await world.ok(work('reader'), 'log', '--format=%s')).toBe('Second\nFirst');
  await commitFile(work('ann'), 'three.txt', '3\n', 'Third');
  await world.ok(work('ann'), 'push', '-q');
  await world.ok(work('reader'), 'fetch', '-q');
  expect(await world.ok(work('reader'), 'log', '--format=%s', 'origin/main', '-1')).toBe('Third');
});

it('makes a shallow clone, speaking protocol v2', async () => {
  const run = await world.git(
    world.dir,
    'clone',
    '--depth',
    '1',
    world.remote('acme/App', keys.annRead),
    work('shallow'),
  );
  expect(run.status).toBe(0);
  expect(await world.ok(work('shallow'), 'rev-list', '--count', 'HEAD')).toBe('1');
  expect(await world.ok(work('shallow'), 'rev-parse', '--is-shallow-repository')).toBe('true');
  const listed = await world.git(
    world.dir,
    '-c',
    'protocol.version=2',
    'ls-remote',
    world.remote('acme/App', keys.annRead),
  );
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(/^[0-9a-f]{40}\trefs\/heads\/main$/m);
  // What git 2.39 sends: the Git-Protocol header, answered with protocol v2's capabilities.
  const v2 = await fetch(`${world.url}/git/acme/App.git/info/refs?service=git-upload-pack`, {
    headers: {
      authorization: `Basic ${Buffer.from(`git:${keys.annRead}`).toString('base64')}`,
      'git-protocol': 'version=2',
    },
  });
  expect(await v2.text()).toContain('version 2\n');
});

it('asks for credentials (401, WWW-Authenticate) and refuses a wrong key', async () => {
  const bare = await fetch(`${world.url}/git/acme/App.git/info/refs?service=git-upload-pack`, {
    redirect: 'manual',
  });
  expect(bare.status).toBe(401);
  expect(bare.headers.get('www-authenticate')).toMatch(/^Basic realm="platform"/);
  const none = await world.git(world.dir, 'ls-remote', world.remote('acme/App'));
  expect(none.status).not.toBe(0);
  expect(none.stderr).toMatch(/could not read Username|Authentication failed/);
  const wrong = await world.git(world.dir, 'ls-remote', world.remote('acme/App', 'pk_wrong_key'));
  expect(wrong.status).not.toBe(0);
  expect(wrong.stderr).toContain('Authentication failed');
});

it('refuses a push by a read key and by a member who does not own the repository (403)', async () => {
  const cwd = work('ann');
  await commitFile(cwd, 'denied.txt', 'no\n', 'Denied');
  const byReader = await world.git(cwd, 'push', world.remote('acme/App', keys.annRead), 'main');
  expect(byReader.status).not.toBe(0);
  expect(byReader.stderr).toContain('403');
  expect(byReader.stderr).toContain('git:write');
  const byBob = await world.git(cwd, 'push', world.remote('acme/App', keys.bob), 'main');
  expect(byBob.status).not.toBe(0);
  expect(byBob.stderr).toContain(
    'may not update git.repository: it needs ownership (it belongs to ann@example.com)',
  );
  const remoteHead = await world.ok(
    cwd,
    'ls-remote',
    world.remote('acme/App', keys.annRead),
    'main',
  );
  expect(remoteHead.split('\t')[0]).toBe(await world.ok(cwd, 'rev-parse', 'HEAD~1'));
  await world.ok(cwd, 'reset', '-q', '--hard', 'HEAD~1');
});

it('pushes 50 MB, streamed, and clones it back', async () => {
  const cwd = work('ann');
  await commitFile(cwd, 'big.bin', randomBytes(50 * 1024 * 1024), 'Big');
  await world.ok(cwd, 'push', '-q', 'origin', 'main');
  await world.ok(work('reader'), 'pull', '-q', '--ff-only');
  expect(await world.ok(work('reader'), 'rev-parse', 'HEAD:big.bin')).toBe(
    await world.ok(cwd, 'rev-parse', 'HEAD:big.bin'),
  );
}, 120_000);

it('keeps the keys out of the request log', () => {
  const text = world.logs.join('');
  expect(text).toContain('/git/acme/App.git/git-receive-pack');
  for (const key of Object.values(keys)) expect(text).not.toContain(key);
});

it("refuses what is not git's request, and survives a client hanging up mid-push", async () => {
  const auth = `Basic ${Buffer.from(`git:${keys.ann}`).toString('base64')}`;
  const json = await fetch(`${world.url}/git/acme/App.git/git-upload-pack`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: '{"want":"everything"}',
  });
  expect(json.status).toBe(400);
  expect(((await json.json()) as { error: { message: string } }).error.message).toContain(
    'application/x-git-upload-pack-request',
  );
  const events = async () =>
    (
      (
        await world.call(
          ANN,
          'GET',
          `/api/v1/git/webhooks/events?repositoryId=${repoId}&event=push`,
        )
      ).body.data as unknown[]
    ).length;
  const before = await events();

  // The commands of a push and the start of a pack, then the connection drops.
  const line = `${'0'.repeat(40)} ${'1'.repeat(40)} refs/heads/hangup\0report-status\n`;
  const pkt = `${(line.length + 4).toString(16).padStart(4, '0')}${line}0000PACK\x00\x00\x00\x02\x00\x00\x00\x03`;
  const req = request(`${world.url}/git/acme/App.git/git-receive-pack`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-git-receive-pack-request' },
  });
  req.on('error', () => undefined);
  req.write(pkt);
  await sleep(300);
  req.destroy();

  // The lock is released: a push goes through, and the half push left nothing.
  const cwd = work('ann');
  await commitFile(cwd, 'after.txt', 'after\n', 'After the hang-up');
  await world.ok(cwd, 'push', '-q', 'origin', 'main');
  const refs = await world.ok(cwd, 'ls-remote', 'origin');
  expect(refs).not.toContain('refs/heads/hangup');
  expect(await events()).toBe(before + 1);
});

it('never stores a clone URL from the Host header: each reader sees its own origin', async () => {
  const forged = await world.call(
    ANN,
    'POST',
    '/api/v1/git/repos',
    { providerId: 'local', owner: 'acme', repoName: 'Forged' },
    { host: 'evil.example' },
  );
  expect(forged.status).toBe(201);
  const { id } = forged.body.data as { id: string };
  const read = await world.call(BOB, 'GET', `/api/v1/git/repos/${id}`);
  expect((read.body.data as { htmlUrl: string }).htmlUrl).toBe(`${world.url}/git/acme/Forged.git`);
  const listed = await world.call(BOB, 'GET', '/api/v1/git/repos');
  const urls = (listed.body.data as Array<{ htmlUrl: string | null }>).map((r) => r.htmlUrl);
  expect(urls.join(' ')).not.toContain('evil.example');
});
