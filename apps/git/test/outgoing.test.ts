import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@platform/db';
import {
  eventually,
  jsonApi,
  serviceUnderTest,
  testDatabase,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import { git } from '../src/index';
import { PREFIX, tempDir } from './helpers';

// Webhooks of local repositories: the platform POSTs GitHub-style signed events to a receiver
// (a local HTTP server here, checking signatures as a receiver does), through durable jobs.

interface Received {
  event: string;
  delivery: string;
  valid: boolean;
  body: Json;
}
const received: Received[] = [];
let secret = '';
const failures: number[] = []; // statuses to answer next, before 204s
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
    received.push({
      event: String(req.headers['x-github-event']),
      delivery: String(req.headers['x-github-delivery']),
      valid: given.length === expected.length && timingSafeEqual(given, Buffer.from(expected)),
      body: JSON.parse(raw.toString('utf8')),
    });
    res.writeHead(failures.shift() ?? 204).end();
  });
});
const until = (count: number) =>
  eventually(() => received.length === count, { timeout: 10_000, what: `delivery ${count}` });
let hookUrl: string;
let data: ReturnType<typeof tempDir>;
beforeAll(async () => {
  data = tempDir('git-outgoing-');
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((done) => receiver.close(() => done()));
  data.remove();
});

it('refuses a loopback or private webhook url unless GIT_ALLOW_PRIVATE_TARGETS', async () => {
  const svc = await serviceUnderTest(git, { env: { GIT_DATA_DIR: data.dir }, jobs: false });
  try {
    const api = jsonApi(svc.app, PREFIX);
    await api.post('/providers', { name: 'Local', type: 'local' });
    await api.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'guarded' });
    for (const url of [hookUrl, 'http://10.1.2.3/x', 'http://169.254.169.254/latest']) {
      const res = await api.post('/repos/acme%2Fguarded/webhooks', { url });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/GIT_ALLOW_PRIVATE_TARGETS is not true/);
    }
  } finally {
    await svc.close();
  }
});

it('delivers signed push, branch and pull-request events, after a restart and a 500', async () => {
  const db = await testDatabase();
  const env = { GIT_DATA_DIR: data.dir, GIT_ALLOW_PRIVATE_TARGETS: 'true' };
  let second: ServiceUnderTest | undefined;
  try {
    // The first instance polls no jobs: it stops with the push event stored, not sent.
    const first = await serviceUnderTest(git, { db, env, jobs: false });
    const api1 = jsonApi(first.app, PREFIX);
    await api1.post('/providers', { name: 'Local', type: 'local' });
    const repo = (await api1.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'w' }))
      .body.data;
    const hook = await api1.post(`/repos/${repo.id}/webhooks`, { url: hookUrl });
    expect(hook.status).toBe(201);
    secret = hook.body.data.secret;
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    const commit = await api1.post(`/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'First',
      files: [{ path: 'a.txt', content: 'a' }],
    });
    expect(commit.status).toBe(201);
    await first.app.close();
    expect(received).toEqual([]);

    second = await serviceUnderTest(git, { db, env, jobs: { pollMs: 20 } });
    await until(1);
    expect(received[0]).toMatchObject({ event: 'push', valid: true });
    expect(received[0].body).toMatchObject({
      ref: 'refs/heads/main',
      after: commit.body.data.sha,
      repository: { full_name: 'acme/w' },
    });

    // A receiver failing with 500 gets the same delivery again (its backoff cut short here).
    failures.push(500);
    const api = jsonApi(second.app, PREFIX);
    expect((await api.post(`/repos/${repo.id}/branches`, { name: 'feature' })).status).toBe(201);
    await until(2);
    // The failure is recorded after the receiver answers: cut the backoff short until it is.
    await eventually(
      async () => {
        await sql`update git.jobs set run_at = now() where status = 'queued'`.execute(db.kysely);
        return received.length === 3;
      },
      { timeout: 10_000, what: 'delivery 3' },
    );
    expect(received.slice(1).map((r) => [r.event, r.body.ref, r.valid])).toEqual([
      ['create', 'feature', true],
      ['create', 'feature', true],
    ]);
    expect(received[2].delivery).toBe(received[1].delivery);

    await api.post(`/repos/${repo.id}/commits`, {
      branch: 'feature',
      message: 'Feature',
      files: [{ path: 'b.txt', content: 'b' }],
    });
    await api.post(`/repos/${repo.id}/pulls`, { title: 'F', head: 'feature', base: 'main' });
    expect((await api.post(`/repos/${repo.id}/pulls/1/merge`, {})).status).toBe(200);
    await until(7);
    // Concurrent jobs: delivered in any order, as GitHub's are.
    const later = received.slice(3);
    const kinds = later.map((r) => `${r.event} ${r.body.action ?? r.body.ref}`).sort();
    expect(kinds).toEqual([
      'pull_request closed',
      'pull_request opened',
      'push refs/heads/feature',
      'push refs/heads/main',
    ]);
    expect(later.every((r) => r.valid)).toBe(true);
    expect(later.find((r) => r.body.action === 'closed')!.body.pull_request).toMatchObject({
      number: 1,
      merged: true,
    });
    expect(new Set(received.map((r) => r.delivery)).size).toBe(6);

    // Stored encrypted: the secret appears nowhere in the service's tables.
    const { rows } = await sql<{
      t: string;
    }>`select w::text as t from git.webhooks w union all select j::text from git.jobs j`.execute(
      db.kysely,
    );
    expect(rows.map((r) => r.t).join('\n')).not.toContain(secret);
  } finally {
    await second?.app.close();
    await db.close();
  }
});
