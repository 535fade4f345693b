import { createHmac } from 'node:crypto';
import { signIdentity } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import type { StageDatabase } from '../src/database';
import {
  eventually,
  serviceUnderTest,
  testDatabase,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import stage from '../src/index';
import { ADA, AUTH, SESSION_SECRET } from './backends-helpers';

// Triggers of workflows (issue 40): a schedule (croner, every second here) firing once per tick
// across two instances on one database, and a webhook signed as the platform's outgoing webhooks
// are, with a good and a bad signature.

let db: PlatformDatabase;
const instances: ServiceUnderTest[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  for (const instance of instances) await instance.app.close();
  await db.close();
});

const instance = async () => {
  const env = { ...AUTH, STAGE_WORKFLOW_SCHEDULE_TICK_MS: '100', STAGE_WORKFLOW_SYNC_MS: '2000' };
  const svc = await serviceUnderTest(stage, { db, env, jobs: { pollMs: 50, leaseMs: 3000 } });
  instances.push(svc);
  return svc;
};

async function api(
  svc: ServiceUnderTest,
  method: string,
  url: string,
  payload?: object,
  as?: typeof ADA,
) {
  // prettier-ignore
  const identity = await signIdentity(SESSION_SECRET, as ?? { kind: 'service', name: 'tests' });
  const res = await svc.app.inject({
    method: method as 'GET',
    url: `/api/v1/stage${url}`,
    headers: { 'x-platform-identity': identity },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const WORKFLOWS = {
  version: 1,
  workflows: {
    tick: {
      triggers: [{ schedule: { cron: '* * * * * *', timezone: 'Europe/Paris' } }],
      steps: [{ respond: { at: '{{ input.scheduledAt }}' } }],
    },
    hook: {
      description: 'Orders from the shop',
      triggers: [{ webhook: {} }],
      steps: [{ set: { total: '{{ $sum(input.lines.price) }}' }, as: 't' }, { return: '{{ steps.t }}' }], // prettier-ignore
    },
    gate: { steps: [{ waitFor: { approval: { message: 'Ship?' }, timeout: '1h' }, as: 'ok' }, { return: '{{ steps.ok }}' }] }, // prettier-ignore
    broken: { triggers: [{ schedule: { cron: '61 * * * *' } }], steps: [{ respond: 1 }] },
  },
};

let one: ServiceUnderTest;
let sid: string;
beforeAll(async () => {
  one = await instance();
  const session = (await api(one, 'POST', '/sessions', {})).body.data.id;
  const files = { '/app/platform.workflows.json': JSON.stringify(WORKFLOWS) };
  expect((await api(one, 'POST', `/sessions/${session}/push`, { files })).status).toBe(200);
  sid = (await api(one, 'POST', '/apps', { sessionId: session, name: 'triggered' })).body.data.sid;
}, 60_000);

it('fires a schedule once per tick across two instances', async () => {
  const two = await instance();
  const runs = async () =>
    ((await api(two, 'GET', `/apps/${sid}/runs?workflow=tick&limit=100`)).body.data as Json[]).filter((r) => r.status === 'completed'); // prettier-ignore
  await eventually(async () => expect((await runs()).length).toBeGreaterThanOrEqual(3), { timeout: 20_000 }); // prettier-ignore
  const done = await runs();
  expect(done.every((r) => r.trigger === 'schedule')).toBe(true);
  const ticks = await Promise.all(done.map(async (r) => (await api(one, 'GET', `/apps/${sid}/runs/${r.id}`)).body.data.result.at)); // prettier-ignore
  expect(new Set(ticks).size).toBe(ticks.length);
  for (const at of ticks) expect(Date.parse(at) % 1000).toBe(0);
});

it('lists the workflows with their triggers, and starts a run from a signed webhook', async () => {
  const listed = await api(one, 'GET', `/apps/${sid}/workflows`);
  expect(listed.status).toBe(200);
  const [tick, hook, , broken] = listed.body.data;
  expect(tick).toMatchObject({ name: 'tick', steps: 1, error: null, triggers: [{ schedule: { cron: '* * * * * *', timezone: 'Europe/Paris' } }] }); // prettier-ignore
  expect(broken.error).toMatch(/^Workflow broken: field triggers\[0\]\.schedule\.cron: /);
  const { url, secret } = hook.triggers[0].webhook;
  expect(hook.description).toBe('Orders from the shop');
  expect(url).toMatch(/\/api\/v1\/stage\/hooks\/wh_[\w-]+$/);
  expect(secret).toMatch(/^whsec_/);
  // Asked again: the same URL and secret.
  expect((await api(one, 'GET', `/apps/${sid}/workflows`)).body.data[1].triggers[0].webhook).toEqual({ url, secret }); // prettier-ignore

  const deliver = (
    body: string,
    sign: string,
    at = Math.floor(Date.now() / 1000),
    path = new URL(url).pathname,
    signature?: string,
  ) =>
    // prettier-ignore
    one.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/json',
        'x-platform-timestamp': String(at),
        'x-platform-signature': signature ?? `sha256=${createHmac('sha256', sign).update(`${at}.${body}`).digest('hex')}`, // prettier-ignore
      },
      payload: body,
    });
  const body = JSON.stringify({ lines: [{ price: 3 }, { price: 4 }] });
  const good = await deliver(body, secret);
  expect(good.statusCode).toBe(202);
  const { runId } = good.json().data;
  await eventually(async () => {
    const run = (await api(one, 'GET', `/apps/${sid}/runs/${runId}`)).body.data;
    expect(run).toMatchObject({ status: 'completed', trigger: 'webhook', result: { total: 7 } });
  });

  const bad = await deliver(body, 'whsec_not-the-secret');
  expect([bad.statusCode, bad.json().error.code]).toEqual([401, 'UNAUTHORIZED']);
  const stale = await deliver(body, secret, Math.floor(Date.now() / 1000) - 3600);
  expect(stale.json().error.message).toBe('X-Platform-Timestamp is more than 300 s away from now');
  // An unknown token, even with a good signature, is refused as a bad signature is.
  const unknown = await deliver(body, secret, undefined, '/api/v1/stage/hooks/wh_nope');
  expect(unknown.json()).toEqual(bad.json());
  // Timestamps too far either way; the body as signed, byte for byte; at most 256 KiB.
  const ahead = await deliver(body, secret, Math.floor(Date.now() / 1000) + 3600);
  expect([ahead.statusCode, ahead.json().error.message]).toEqual([401, 'X-Platform-Timestamp is more than 300 s away from now']); // prettier-ignore
  const at = Math.floor(Date.now() / 1000);
  const sig = `sha256=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
  const reformatted = await one.app.inject({ method: 'POST', url: new URL(url).pathname, headers: { 'content-type': 'application/json', 'x-platform-timestamp': String(at), 'x-platform-signature': sig }, payload: JSON.stringify(JSON.parse(body), null, 1) }); // prettier-ignore
  expect(reformatted.json()).toEqual(bad.json());
  const short = await deliver(body, secret, undefined, undefined, sig.slice(0, 20));
  expect(short.json()).toEqual(bad.json());
  const huge = await deliver(JSON.stringify({ x: 'x'.repeat(300 * 1024) }), secret);
  expect(huge.statusCode).toBe(413);
  const hookRuns = (await api(one, 'GET', `/apps/${sid}/runs?workflow=hook`)).body.data;
  expect(hookRuns).toHaveLength(1);
});

it('keeps webhook tokens and secrets out of the database in plain, and from members who do not own the app', async () => {
  const { url, secret } = (await api(one, 'GET', `/apps/${sid}/workflows`)).body.data[1].triggers[0].webhook; // prettier-ignore
  const token = new URL(url).pathname.split('/').at(-1)!;
  const rows = await db
    .schema<StageDatabase>('stage')
    .selectFrom('workflow_webhooks')
    .selectAll()
    .execute();
  expect(rows).toHaveLength(1);
  expect(JSON.stringify(rows)).not.toContain(token);
  expect(JSON.stringify(rows)).not.toContain(secret);
  const listed = await api(one, 'GET', `/apps/${sid}/workflows`, undefined, ADA);
  expect([listed.status, listed.body.error?.code, JSON.stringify(listed.body)]).toEqual([403, 'FORBIDDEN', expect.not.stringContaining(secret)]); // prettier-ignore
});

it('lets only those who may change the app approve, reject or retry a run; 409 for one not waiting', async () => {
  const identity = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
  const res = await one.app.inject({ method: 'POST', url: `/api/v1/run/${sid}/gate`, headers: { 'x-platform-identity': identity }, payload: { input: {} } }); // prettier-ignore
  expect(res.statusCode).toBe(202);
  const runId = res.json().data.runId as string;
  await eventually(async () => expect((await api(one, 'GET', `/apps/${sid}/runs/${runId}`)).body.data.status).toBe('waiting')); // prettier-ignore
  for (const action of ['approve', 'reject', 'retry']) {
    const denied = await api(one, 'POST', `/apps/${sid}/runs/${runId}/${action}`, {}, ADA);
    expect([action, denied.status, denied.body.error.code]).toEqual([action, 403, 'FORBIDDEN']);
  }
  expect((await api(one, 'GET', `/apps/${sid}/runs/${runId}`)).body.data.status).toBe('waiting');
  const retried = await api(one, 'POST', `/apps/${sid}/runs/${runId}/retry`, {});
  expect([retried.status, retried.body.error.message]).toEqual([409, `Run ${runId} is waiting: only a failed run is retried`]); // prettier-ignore
  expect((await api(one, 'POST', `/apps/${sid}/runs/${runId}/approve`, {})).status).toBe(200);
  await eventually(async () => expect((await api(one, 'GET', `/apps/${sid}/runs/${runId}`)).body.data.status).toBe('completed')); // prettier-ignore
  const again = await api(one, 'POST', `/apps/${sid}/runs/${runId}/approve`, {});
  expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);
});
