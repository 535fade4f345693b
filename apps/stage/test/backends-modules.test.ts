import { signIdentity } from '@platform/core';
import { inference } from '@platform/inference';
import { eventually, listen, serviceUnderTest, type ServiceUnderTest } from '@platform/testing';
import { AUTH, backendsUnderTest, SESSION_SECRET, type Backends } from './backends-helpers';

// The real inference service on a port (its seeded mock provider answers offline), and stage
// with PLATFORM_URL at it: @stage/inference goes over HTTP as the stage service.
let b: Backends;
let peer: ServiceUnderTest;
beforeAll(async () => {
  peer = await serviceUnderTest(inference, { env: AUTH, jobs: false });
  b = await backendsUnderTest({
    PLATFORM_URL: await listen(peer.app),
    STAGE_BACKEND_KV_MAX_VALUE_BYTES: '100',
  });
});
afterAll(async () => {
  await b.s.svc.close();
  await peer.close();
});

const STORE = `
import { Hono } from 'hono';
import { kv, runWorkflow } from '@stage/compute';
import { chat, embed } from '@stage/inference';
const app = new Hono();
const failure = (e) => ({ name: e.name, code: e.code, message: e.message });
app.put('/kv/:key', async (c) => c.json({ stored: await kv.set(c.req.param('key'), await c.req.json()) }));
app.get('/kv/:key', async (c) => c.json({ value: await kv.get(c.req.param('key')) }));
app.delete('/kv/:key', async (c) => c.json({ deleted: await kv.delete(c.req.param('key')) }));
app.get('/list', async (c) =>
  c.json(await kv.list({ prefix: c.req.query('prefix') ?? '', limit: 2, cursor: c.req.query('cursor') ?? null })));
app.get('/big', async (c) => c.json(await kv.set('big', 'x'.repeat(200)).catch(failure)));
app.post('/ask', async (c) => c.json(await chat(c.env, { model: 'mock-1', messages: [{ role: 'user', content: 'hi' }] })));
app.post('/embed', async (c) => c.json(await embed(c.env, { model: 'mock-embed-1', input: 'hi' }).catch(failure)));
app.post('/no-env', async (c) => c.json(await chat(undefined, { messages: [] }).catch(failure)));
app.post('/bad-field', async (c) => c.json(await chat(c.env, { messages: [], temperature: 2 }).catch(failure)));
app.post('/run', async (c) => c.json(await runWorkflow(c.env, 'hello', { who: 'world' }).catch(failure)));
app.post('/run-missing', async (c) => c.json(await runWorkflow(c.env, 'nope').catch(failure)));
export default app;
`;
const WORKFLOWS = JSON.stringify({
  version: 1,
  workflows: {
    hello: {
      steps: [
        { respond: { greeting: 'hi {{ input.who }}', by: '{{ auth.kind }} {{ auth.name }}' } },
      ],
    },
  },
});

describe('@stage/compute kv', () => {
  it('keeps values across requests, per app, with prefix listing and a value size limit', async () => {
    const one = (await b.publish({ '/app/api/index.ts': STORE })).sid;
    const two = (await b.publish({ '/app/api/index.ts': STORE })).sid;
    const put = (sid: string, key: string, value: unknown) =>
      b.call(sid, `/kv/${key}`, { method: 'PUT', body: JSON.stringify(value) });
    expect((await put(one, 'user:1', { name: 'ada', n: [1, 2] })).json()).toEqual({ stored: null });
    await put(one, 'user:2', 'bob');
    await put(one, 'user:3', 3);
    await put(one, 'other', true);
    expect((await b.call(one, '/kv/user:1')).json()).toEqual({ value: { name: 'ada', n: [1, 2] } });
    // Another app sees none of it.
    expect((await b.call(two, '/kv/user:1')).json()).toEqual({ value: null });
    await put(two, 'user:1', 'mine');
    expect((await b.call(one, '/kv/user:1')).json().value.name).toBe('ada');
    const page1 = (await b.call(one, '/list?prefix=user:')).json();
    expect(page1).toEqual({ keys: ['user:1', 'user:2'], cursor: 'user:2' });
    const page2 = (await b.call(one, '/list?prefix=user:&cursor=user:2')).json();
    expect(page2).toEqual({ keys: ['user:3'], cursor: null });
    expect((await b.call(one, '/kv/user:2', { method: 'DELETE' })).json()).toEqual({
      deleted: true,
    });
    expect((await b.call(one, '/kv/user:2')).json()).toEqual({ value: null });
    expect((await b.call(one, '/big')).json()).toEqual({
      name: 'StageError',
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('over 100 (STAGE_BACKEND_KV_MAX_VALUE_BYTES)'),
    });
  });
});

describe('@stage/inference', () => {
  it('chats through the inference service, the usage attributed to the app', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': STORE });
    const res = await b.call(sid, '/ask', { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    const data = res.json();
    expect(data).toMatchObject({ model: 'mock-1', content: expect.any(String) });
    const token = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
    // The request log row is written after the answer.
    let row: unknown;
    await eventually(
      async () => {
        const got = await peer.app.inject({
          method: 'GET',
          url: `/api/v1/inference/requests/${data.requestId}`,
          headers: { 'x-platform-identity': token },
        });
        row = got.statusCode === 200 ? got.json().data : undefined;
        return row !== undefined;
      },
      { timeout: 5000, what: 'the request log row' },
    );
    expect(row).toMatchObject({ app: sid, kind: 'chat' });
    const embedded = (await b.call(sid, '/embed', { method: 'POST', body: '{}' })).json();
    expect(embedded).toMatchObject({ model: 'mock-embed-1', embedding: expect.any(Array) });
  });

  it('needs the request env, and refuses fields the service does not take', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': STORE });
    const noEnv = (await b.call(sid, '/no-env', { method: 'POST', body: '{}' })).json();
    expect(noEnv).toMatchObject({ name: 'TypeError', message: expect.stringContaining('pass the env') }); // prettier-ignore
    const bad = (await b.call(sid, '/bad-field', { method: 'POST', body: '{}' })).json();
    expect(bad).toEqual({ name: 'StageError', code: 'BAD_REQUEST', message: 'inference.chat: unknown field temperature' }); // prettier-ignore
  });
});

describe('@stage/compute runWorkflow', () => {
  it("runs the app's workflow as the app itself, not as its visitor", async () => {
    const name = 'workflow-runner';
    const { sid } = await b.publish(
      { '/app/api/index.ts': STORE, '/app/platform.workflows.json': WORKFLOWS },
      name,
    );
    const run = (await b.call(sid, '/run', { method: 'POST', body: '{}' })).json();
    expect(run).toMatchObject({
      status: 'completed',
      result: { greeting: 'hi world', by: `key app ${name} (${sid})` },
    });
    const missing = (await b.call(sid, '/run-missing', { method: 'POST', body: '{}' })).json();
    expect(missing).toMatchObject({ name: 'StageError', code: 'NOT_FOUND' });
    expect(missing.message).toContain('nope');
  });
});
