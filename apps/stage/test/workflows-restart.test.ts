import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { openDatabase, sql } from '@platform/db';
import {
  eventually,
  migratedService,
  processStorage,
  startProcess,
  type RunningProcess,
} from '@platform/testing';
import { stage } from '../src/index';

// A durable run across crashes (issue 40): real stage processes on one database (PGlite data
// directory, or PostgreSQL under scripts/with-postgres.sh), each killed with SIGKILL at one point
// of the run — in a step; in a sleep and a wait for approval at once (parallel branches) — and
// the next process resuming it exactly once: no step with a side effect acted twice (the step in flight is sent
// again with the same idempotency key), none is lost. A crashed process's lease runs for 30 s;
// rather than wait, the test expires it in the database, which is all the passing of time changes.

const main = join(__dirname, '..', 'dist', 'main.js');
const calls: Array<{ path: string; key: string }> = [];
/** Answers held back (the step in flight when its process is killed). */
let holdSlow = true;
const held: ServerResponse[] = [];
const target = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    calls.push({ path: req.url ?? '', key: String(req.headers['idempotency-key']) });
    if (req.url === '/slow' && holdSlow) return void held.push(res);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});

const processes: RunningProcess[] = [];
let removeStorage: () => Promise<void> = async () => undefined;
afterAll(async () => {
  for (const p of processes) await p.kill('SIGKILL');
  for (const res of held) res.destroy();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await removeStorage();
});

async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

it('resumes a run killed in a step, and killed asleep while waiting for approval, exactly once', async () => {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const storage = await processStorage(migratedService(stage));
  removeStorage = storage.remove;
  const env = {
    ...storage.env,
    STAGE_BACKEND_FETCH_ALLOW: new URL(url).host,
    STAGE_WORKFLOW_SYNC_MS: '200',
    STAGE_WORKFLOW_WAKE_MS: '500',
  };
  const start = async () => {
    const p = await startProcess(main, env);
    processes.push(p);
    return { p, api: `${p.url}/api/v1/stage`, run: `${p.url}/api/v1/run` };
  };
  /** What a crash's lease expiry changes: the running jobs are free to take over. */
  const expireLeases = async () => {
    const db = await openDatabase({ url: storage.env.DATABASE_URL, dataDir: storage.dataDir });
    try {
      await sql`update stage.jobs set lease_until = now() - interval '1 second' where status = 'running'`.execute(db.kysely); // prettier-ignore
    } finally {
      await db.close();
    }
  };

  // 1. Killed in a step: the HTTP call of steps[1] is in flight.
  const one = await start();
  const session = (await call('POST', `${one.api}/sessions`, {})).body.data.id;
  const workflows = {
    ship: {
      steps: [
        { 'http.request': { url: `${url}/first`, method: 'POST' } },
        { 'http.request': { url: `${url}/slow`, method: 'POST' }, as: 'slow' },
        {
          parallel: [
            [{ sleep: '2s' }, { 'http.request': { url: `${url}/awake`, method: 'POST' } }],
            [{ waitFor: { approval: true, timeout: '1h' }, as: 'ok' }],
          ],
        },
        { 'http.request': { url: `${url}/last`, method: 'POST' } },
        { respond: { slow: '{{ steps.slow.body }}', ok: '{{ steps.ok.status }}' } },
      ],
    },
  };
  const files = { '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }) };
  expect((await call('POST', `${one.api}/sessions/${session}/push`, { files })).status).toBe(200);
  const sid = (await call('POST', `${one.api}/apps`, { sessionId: session, name: 'ship' })).body.data.sid; // prettier-ignore
  const started = await call('POST', `${one.run}/${sid}/ship`, {});
  expect([started.status, started.body.data.status]).toEqual([202, 'running']);
  const runId = started.body.data.runId as string;
  await eventually(() => expect(calls.map((c) => c.path)).toEqual(['/first', '/slow']));
  await one.p.kill('SIGKILL');
  await expireLeases();

  // 2. The next process resumes at steps[1], sending it again with the same key; then one
  // branch sleeps while the other waits for an approval: killed so, holding no job.
  holdSlow = false;
  const two = await start();
  const runOf = async (p: { api: string }) =>
    (await call('GET', `${p.api}/apps/${sid}/runs/${runId}`)).body.data;
  await eventually(async () => expect((await runOf(two)).status).toBe('waiting'), { timeout: 40_000 }); // prettier-ignore
  expect(calls.map((c) => `${c.path} ${c.key}`)).toEqual([
    `/first ${runId}:steps[0]:1`,
    `/slow ${runId}:steps[1]:1`,
    `/slow ${runId}:steps[1]:1`,
  ]);
  await two.p.kill('SIGKILL');

  // 3. Another process wakes the sleeping branch when its time comes, which goes on while the
  // other still waits; approved there, the run goes on from the wait and ends.
  const three = await start();
  await eventually(() => expect(calls.map((c) => c.path)).toContain('/awake'), { timeout: 20_000 }); // prettier-ignore
  await eventually(async () => expect((await runOf(three)).status).toBe('waiting'));
  expect((await call('POST', `${three.api}/apps/${sid}/runs/${runId}/approve`, {})).status).toBe(200); // prettier-ignore
  await eventually(async () => expect((await runOf(three)).status).toBe('completed'), { timeout: 20_000 }); // prettier-ignore
  const run = await runOf(three);
  expect(run.result).toEqual({ slow: { ok: true }, ok: 'approved' });
  expect(calls.map((c) => c.path)).toEqual(['/first', '/slow', '/slow', '/awake', '/last']);
  const steps = (await call('GET', `${three.api}/apps/${sid}/runs/${runId}/steps`)).body.data;
  const table = steps.map((s: { path: string; status: string; attempts: number }) => [s.path, s.status, s.attempts]); // prettier-ignore
  expect(table.sort()).toEqual([
    ['steps[0]', 'completed', 1],
    ['steps[1]', 'completed', 1],
    ['steps[2].parallel[0][0]', 'completed', 1],
    ['steps[2].parallel[0][1]', 'completed', 1],
    ['steps[2].parallel[1][0]', 'completed', 1],
    ['steps[3]', 'completed', 1],
    ['steps[4]', 'completed', 1],
  ]);
}, 150_000);
