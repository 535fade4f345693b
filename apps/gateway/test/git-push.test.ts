import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@platform/testing';
import { ADMIN, ANN, BOB, gitWorld, type GitWorld } from './git-world';

// Pushes drive the platform: each push over HTTP (and through the API) is a push event listed
// with GitHub's payload, a signed webhook delivery to a local receiver, and a ledger entry.
// Protected branches refuse force pushes and deletion (git prints why), may require a pull
// request and approvals; reviews on local pull requests.

// @octokit/webhooks-methods ships ES modules only, with no `require` in its exports map: Jest
// (CommonJS here) loads its file by path, and transforms it.
const { verify } = jest.requireActual<{
  verify(secret: string, payload: string, signature: string): Promise<boolean>;
}>('../../../node_modules/@octokit/webhooks-methods/dist-node/index.js');

const SECRET = 'the receiver checks this';
let world: GitWorld;
let receiver: Server;
const received: Array<{ event: string; valid: boolean; body: Record<string, unknown> }> = [];
let key = '';
let id = '';
const ZERO = '0'.repeat(40);

beforeAll(async () => {
  world = await gitWorld();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['x-hub-signature-256']);
      void verify(SECRET, text, signature).then((valid) => {
        received.push({
          event: String(req.headers['x-github-event']),
          valid,
          body: JSON.parse(text),
        });
        res.writeHead(204).end();
      });
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const port = (receiver.address() as { port: number }).port;
  expect(
    (await world.call(ADMIN, 'POST', '/api/v1/git/providers', { name: 'local', type: 'local' }))
      .status,
  ).toBe(201);
  const repo = await world.call(ANN, 'POST', '/api/v1/git/repos', {
    providerId: 'local',
    owner: 'acme',
    repoName: 'hooks',
  });
  id = (repo.body.data as { id: string }).id;
  const hook = await world.call(ANN, 'POST', `/api/v1/git/repos/${id}/webhooks`, {
    url: `http://127.0.0.1:${port}/hook`,
    secret: SECRET,
  });
  expect(hook.status).toBe(201);
  key = await world.key(ANN, ['git:write']);
}, 60_000);
afterAll(async () => {
  receiver?.close();
  await world?.close();
});

const cwd = () => join(world.dir, 'ann');
async function commit(file: string, message: string) {
  writeFileSync(join(cwd(), file), `${message}\n`);
  await world.ok(cwd(), 'add', file);
  await world.ok(cwd(), 'commit', '-q', '-m', message);
  return world.ok(cwd(), 'rev-parse', 'HEAD');
}
const pushEvents = async () =>
  (await world.call(ANN, 'GET', `/api/v1/git/webhooks/events?repositoryId=acme/hooks&event=push`))
    .body.data as Array<{ event: string; payload: Record<string, unknown> }>;
const remoteHead = async (branch: string) =>
  (await world.ok(cwd(), 'ls-remote', 'origin', branch)).split('\t')[0];

it('records a push: the event listed, a signed webhook in GitHub shape, the ledger', async () => {
  await world.ok(world.dir, 'clone', '-q', world.remote('acme/hooks', key), cwd());
  await commit('a.txt', 'First');
  const after = await commit('b.txt', 'Second');
  await world.ok(cwd(), 'push', '-q', 'origin', 'main');

  const [event] = await pushEvents();
  expect(event.event).toBe('push');
  expect(event.payload).toMatchObject({
    ref: 'refs/heads/main',
    before: ZERO,
    after,
    created: true,
    deleted: false,
    forced: false,
    pusher: { email: 'ann@example.com' },
    repository: { full_name: 'acme/hooks', name: 'hooks', owner: { login: 'acme' } },
    head_commit: { id: after, message: 'Second' },
  });
  const commits = event.payload.commits as Array<{ message: string; added: string[] }>;
  expect(commits.map((c) => [c.message, c.added])).toEqual([
    ['First', ['a.txt']],
    ['Second', ['b.txt']],
  ]);

  const delivered = await eventually(
    () => received.find((r) => r.event === 'push' && r.body.after === after) ?? false,
    { timeout: 15_000, what: 'the push webhook' },
  );
  expect(delivered.valid).toBe(true);
  expect(delivered.body).toMatchObject({
    ref: 'refs/heads/main',
    before: ZERO,
    pusher: { email: 'ann@example.com' },
  });

  // The branch the push made: GitHub's `create` event too.
  const created = await eventually(() => received.find((r) => r.event === 'create') ?? false, {
    timeout: 15_000,
    what: 'the create webhook',
  });
  expect(created.body).toMatchObject({ ref: 'main', ref_type: 'branch' });

  await eventually(
    async () => {
      const res = await world.call(ADMIN, 'GET', '/api/v1/ledger/events?action=git.push');
      const entries = res.body.data as Array<{ metadata: { after?: string } }>;
      return entries.some((e) => e.metadata.after === after);
    },
    { timeout: 15_000, what: 'the ledger entry' },
  );
});

it('records a commit made through the API as a push too', async () => {
  const res = await world.call(ANN, 'POST', `/api/v1/git/repos/${id}/commits`, {
    branch: 'main',
    message: 'By the API',
    files: [{ path: 'api.txt', content: 'api\n' }],
  });
  expect(res.status).toBe(201);
  const sha = (res.body.data as { sha: string }).sha;
  const [latest] = await pushEvents();
  expect(latest.payload).toMatchObject({
    after: sha,
    commits: [{ id: sha, message: 'By the API' }],
  });
  await world.ok(cwd(), 'pull', '-q', '--ff-only');
});

it('refuses force pushes and deletion of a protected branch, with the reason in git', async () => {
  const put = await world.call(ANN, 'PUT', `/api/v1/git/repos/${id}/protections/main`, {});
  expect(put.status).toBe(200);
  // Bob owns nothing here: he may neither change nor lift the protection, and it stays as it is.
  const rules = `/api/v1/git/repos/${id}/protections`;
  const listed = (await world.call(ANN, 'GET', rules)).body.data;
  expect((await world.call(BOB, 'PUT', `${rules}/main`, { requiredApprovals: 0 })).status).toBe(
    403,
  );
  expect((await world.call(BOB, 'DELETE', `${rules}/main`)).status).toBe(403);
  expect((await world.call(ANN, 'GET', rules)).body.data).toEqual(listed);
  const protectedHead = await remoteHead('main');
  await world.ok(cwd(), 'commit', '-q', '--amend', '-m', 'Rewritten');
  const forced = await world.git(cwd(), 'push', '--force', 'origin', 'main');
  expect(forced.status).not.toBe(0);
  expect(forced.stderr).toContain('main is a protected branch: force pushes are refused');
  expect(forced.stderr).toContain('[remote rejected]');
  expect(await remoteHead('main')).toBe(protectedHead);
  await world.ok(cwd(), 'reset', '-q', '--hard', 'origin/main');
  // (git itself refuses to delete the default branch: a protected release branch then.)
  await world.ok(cwd(), 'push', '-q', 'origin', 'main:release');
  await world.call(ANN, 'PUT', `/api/v1/git/repos/${id}/protections/release`, {});
  const deleted = await world.git(cwd(), 'push', 'origin', ':release');
  expect(deleted.status).not.toBe(0);
  expect(deleted.stderr).toContain('release is a protected branch: it cannot be deleted');
  expect(await remoteHead('release')).toBe(protectedHead);

  // An unprotected branch takes a force push, recorded as forced; a fast-forward of main passes.
  await world.ok(cwd(), 'checkout', '-q', '-b', 'feature');
  await commit('f.txt', 'Feature');
  await world.ok(cwd(), 'push', '-q', 'origin', 'feature');
  await world.ok(cwd(), 'commit', '-q', '--amend', '-m', 'Feature again');
  await world.ok(cwd(), 'push', '-q', '--force', 'origin', 'feature');
  expect((await pushEvents())[0].payload).toMatchObject({
    ref: 'refs/heads/feature',
    forced: true,
  });
  const apiDelete = await world.call(ANN, 'DELETE', `/api/v1/git/repos/${id}/branches/release`);
  expect(apiDelete.status).toBe(409);
});

it('requires a pull request and approvals; reviews decide the merge', async () => {
  const rule = { requirePullRequest: true, requiredApprovals: 1 };
  expect(
    (await world.call(ANN, 'PUT', `/api/v1/git/repos/${id}/protections/main`, rule)).status,
  ).toBe(200);
  await world.ok(cwd(), 'checkout', '-q', 'main');
  await commit('direct.txt', 'Direct');
  const direct = await world.git(cwd(), 'push', 'origin', 'main');
  expect(direct.stderr).toContain('changes reach it through a pull request with 1 approval(s)');
  const apiCommit = await world.call(ANN, 'POST', `/api/v1/git/repos/${id}/commits`, {
    branch: 'main',
    message: 'x',
    files: [{ path: 'x', content: 'x' }],
  });
  expect(apiCommit.status).toBe(409);
  await world.ok(cwd(), 'reset', '-q', '--hard', 'origin/main');

  const pr = await world.call(ANN, 'POST', `/api/v1/git/repos/${id}/pulls`, {
    title: 'Feature',
    head: 'feature',
    base: 'main',
  });
  const number = (pr.body.data as { number: number }).number;
  const base = `/api/v1/git/repos/${id}/pulls/${number}`;
  const merge = () => world.call(ANN, 'POST', `${base}/merge`, {});
  const review = (who: typeof ANN, event: string) =>
    world.call(who, 'POST', `${base}/reviews`, { event, body: 'seen' });

  expect((await merge()).body.error?.message).toContain('it needs 1 approval (it has 0)');
  expect((await review(ANN, 'APPROVE')).status).toBe(400);
  expect((await review(BOB, 'APPROVE')).status).toBe(403);
  const reviews = (await world.call(ANN, 'GET', `${base}/reviews`)).body.data as {
    reviews: unknown[];
  };
  expect(reviews.reviews).toEqual([]);
  expect((await review(ADMIN, 'REQUEST_CHANGES')).status).toBe(201);
  const blocked = await merge();
  expect(blocked.status).toBe(409);
  expect(blocked.body.error?.message).toContain('the changes requested by root@example.com');
  expect((await review(ADMIN, 'APPROVE')).status).toBe(201);
  // A commit pushed to the head after the approval: approve again.
  const newer = await world.call(ANN, 'POST', `/api/v1/git/repos/${id}/commits`, {
    branch: 'feature',
    message: 'After the approval',
    files: [{ path: 'late.txt', content: 'late' }],
  });
  expect(newer.status).toBe(201);
  const stale = await merge();
  expect(stale.status).toBe(409);
  expect(stale.body.error?.message).toContain('approvals of an older commit do not count');
  expect((await review(ADMIN, 'APPROVE')).status).toBe(201);
  const listed = await world.call(ANN, 'GET', `${base}/reviews`);
  expect(listed.body.data).toMatchObject({ mergeable: true, missing: [] });
  const merged = await merge();
  expect(merged.status).toBe(200);
  const sha = (merged.body.data as { sha: string }).sha;
  expect(await remoteHead('main')).toBe(sha);
  expect((await pushEvents())[0].payload).toMatchObject({ ref: 'refs/heads/main', after: sha });
});

it('keeps concurrent pushes apart: one event per ref, each with its own commits', async () => {
  const clones = ['one', 'two'].map((name) => join(world.dir, `concurrent-${name}`));
  for (const dir of clones)
    await world.ok(world.dir, 'clone', '-q', world.remote('acme/hooks', key), dir);
  const shas = await Promise.all(
    clones.map(async (dir, i) => {
      await world.ok(dir, 'checkout', '-q', '-b', `c${i}`);
      writeFileSync(join(dir, `c${i}.txt`), `${i}\n`);
      await world.ok(dir, 'add', '-A');
      await world.ok(dir, 'commit', '-q', '-m', `Concurrent ${i}`);
      return world.ok(dir, 'rev-parse', 'HEAD');
    }),
  );
  const before = (await pushEvents()).length;
  await Promise.all(clones.map((dir, i) => world.ok(dir, 'push', '-q', 'origin', `c${i}`)));
  const listed = await pushEvents();
  // Exactly two: a push that saw the other's ref move would record it a second time.
  expect(listed.length - before).toBe(2);
  const events = listed.slice(0, 2).map((e) => e.payload);
  for (const [i, sha] of shas.entries()) {
    const event = events.find((p) => p.ref === `refs/heads/c${i}`);
    expect(event).toMatchObject({ after: sha, created: true, commits: [{ id: sha }] });
  }
});
