import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signIdentity, type Env } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import {
  eventually,
  serviceUnderTest,
  sleep,
  testDatabase,
  type ServiceUnderTest,
} from '@platform/testing';
import stage from '../src/index';
import { AUTH, SESSION_SECRET } from './backends-helpers';

// Schedules: cron expressions in an app's config.schedules run a backend route or a workflow, on
// the durable jobs, once per tick however many instances share the database, on after a restart,
// and no more once the app is deleted. The backend tells a witness (a real HTTP server) of each
// tick it runs: each tick must reach it exactly once.

let witness: Server;
let port = 0;
/** Hits of the witness by scheduled time. */
const hits = new Map<string, number>();
let db: PlatformDatabase;
const instances: ServiceUnderTest[] = [];

beforeAll(async () => {
  witness = createServer((req, res) => {
    const at = new URL(req.url ?? '/', 'http://x').searchParams.get('at') ?? '?';
    hits.set(at, (hits.get(at) ?? 0) + 1);
    res.end('seen');
  });
  await new Promise<void>((resolve) => witness.listen(0, '127.0.0.1', resolve));
  port = (witness.address() as AddressInfo).port;
  db = await testDatabase();
});
afterAll(async () => {
  for (const instance of instances) await instance.app.close();
  await db.close();
  await new Promise((resolve) => witness.close(resolve));
});

const ENV: Env = {
  ...AUTH,
  STAGE_BACKEND_FETCH_ALLOW: '127.0.0.1',
  STAGE_SCHEDULE_TICK_MS: '100',
};
/** One more instance of the service on the shared database, polling for jobs. */
const instance = async () => {
  const svc = await serviceUnderTest(stage, { db, env: ENV, jobs: { pollMs: 50, leaseMs: 3000 } });
  instances.push(svc);
  return svc;
};

const api = async (svc: ServiceUnderTest, method: string, url: string, payload?: object) => {
  const identity = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
  const res = await svc.app.inject({
    method: method as 'GET',
    url: `/api/v1/stage${url}`,
    headers: { 'x-platform-identity': identity },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
};

const BACKEND = `
export default {
  async fetch(request, env) {
    const at = request.headers.get('x-stage-scheduled-time');
    console.log('tick ' + at + ' by ' + env.auth.kind + ' ' + env.auth.name);
    await fetch('http://127.0.0.1:' + (await request.json()).port + '/hit?at=' + encodeURIComponent(at));
    return new Response('done');
  },
};
`;
const WORKFLOWS = JSON.stringify({
  version: 1,
  workflows: { hello: { steps: [{ respond: { greeting: 'hi {{ input.who }}' } }] } },
});

const ticks = () => [...hits.entries()].filter(([at]) => at !== '?');

describe('app schedules', () => {
  let sid: string;

  it('run a route once per tick across two instances, and a workflow, listing their runs', async () => {
    const one = await instance();
    const two = await instance();
    const session = (await api(one, 'POST', '/sessions', {})).body.data.id;
    const files = { '/app/api/index.ts': BACKEND, '/app/platform.workflows.json': WORKFLOWS };
    expect((await api(one, 'POST', `/sessions/${session}/push`, { files })).status).toBe(200);
    const created = await api(one, 'POST', '/apps', { sessionId: session, name: 'ticking' });
    sid = created.body.data.sid;
    const bad = await api(two, 'PATCH', `/apps/${sid}`, {
      config: { schedules: { nightly: { cron: '61 * * * *', route: '/tick' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^config\.schedules\.nightly\.cron: "61 \* \* \* \*" is not a valid cron expression/); // prettier-ignore
    const schedules = {
      every: { cron: '* * * * * *', route: '/tick', body: { port } },
      flow: { cron: '* * * * * *', workflow: 'hello', input: { who: 'cron' } },
    };
    expect((await api(two, 'PATCH', `/apps/${sid}`, { config: { schedules } })).status).toBe(200);

    await eventually(() => ticks().length >= 4, {
      timeout: 30_000,
      what: 'four ticks of the schedule',
    });
    for (const [at, count] of ticks()) expect([at, count]).toEqual([at, 1]);

    const listed = await api(one, 'GET', `/apps/${sid}/schedules?runs=100`);
    expect(listed.status).toBe(200);
    const [every, flow] = listed.body.data;
    expect(every).toMatchObject({ name: 'every', cron: '* * * * * *', timezone: 'UTC', route: '/tick', method: 'POST', workflow: null }); // prettier-ignore
    expect(every.nextRunAt).toBeGreaterThan(Date.now() - 60_000);
    const done = every.runs.filter((r: { status: string }) => r.status === 'completed');
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(done[0]).toMatchObject({ httpStatus: 200, error: null, workflowRunId: null });
    // One run per tick, and each tick the witness saw is a run's.
    const times = every.runs.map((r: { scheduledAt: number }) => r.scheduledAt);
    expect(new Set(times).size).toBe(times.length);
    for (const [at] of ticks()) expect(times).toContain(Date.parse(at));
    expect(flow).toMatchObject({ name: 'flow', workflow: 'hello', route: null });
    await eventually(
      async () => {
        const runs = (await api(one, 'GET', `/apps/${sid}/schedules`)).body.data[1].runs;
        return runs.some((r: { status: string }) => r.status === 'completed');
      },
      { timeout: 30_000, what: 'a run of the workflow' },
    );
    const ran = (await api(one, 'GET', `/apps/${sid}/schedules`)).body.data[1].runs.find(
      (r: { status: string }) => r.status === 'completed',
    );
    expect(ran.workflowRunId).toMatch(/^run_/);
    const run = await api(two, 'GET', `/apps/${sid}/runs/${ran.workflowRunId}`);
    expect(run.body.data).toMatchObject({ workflow: 'hello', status: 'completed', result: { greeting: 'hi cron' } }); // prettier-ignore

    // The scheduled requests' console lines, under their run's id.
    const logs = (await api(two, 'GET', `/apps/${sid}/logs?requestId=${done[0].id}`)).body.data;
    expect(logs).toEqual([
      expect.objectContaining({
        source: 'schedule',
        schedule: 'every',
        requestId: done[0].id,
        message: `tick ${new Date(done[0].scheduledAt).toISOString()} by schedule every`,
      }),
    ]);
  });

  it('go on after a restart of every instance, and stop when the app is deleted', async () => {
    for (const svc of instances.splice(0)) await svc.app.close();
    const seen = ticks().length;
    const three = await instance();
    await eventually(() => ticks().length >= seen + 2, {
      timeout: 30_000,
      what: 'ticks after the restart',
    });
    for (const [at, count] of ticks()) expect([at, count]).toEqual([at, 1]);

    expect((await api(three, 'DELETE', `/apps/${sid}`)).status).toBe(200);
    const left = await db.kysely
      .selectFrom('stage.app_schedules')
      .select('name')
      .where('app_sid', '=', sid)
      .execute();
    expect(left).toEqual([]);
    // Runs already started may still arrive; then nothing more comes.
    await sleep(500);
    const after = ticks().length;
    await sleep(1500);
    expect(ticks().length).toBe(after);
  });
});
