import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from '@platform/testing';
import { parseWorkflow } from '../src/domain/workflows/definition';
import { durableUnderTest, type DurableWorkflows } from './workflows-helpers';

// Control flow, retries, sleeps, approvals and retries of failed runs (issue 40), on fixed
// inputs, through the run API of one stage instance that polls for its jobs. The HTTP target is
// a local server speaking plain HTTP/JSON (allowed by STAGE_BACKEND_FETCH_ALLOW).

let wf: DurableWorkflows;
let target: string;
/** What the local target was sent: method, path, idempotency-key, body. */
const received: Array<{ path: string; key: string | undefined; body: string }> = [];
/** Answers to give, by path: a queue of statuses (then 200). */
const plans: Record<string, number[]> = {};

const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const path = req.url ?? '/';
    received.push({ path, key: req.headers['idempotency-key'] as string | undefined, body });
    const status = plans[path]?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path, status, echo: body ? (JSON.parse(body) as Json) : null }));
  });
});

const WORKFLOWS = (url: string) => ({
  branch: {
    steps: [
      { set: { total: '{{ $sum(input.lines.(qty * price)) }}' }, as: 'calc' },
      {
        if: '{{ steps.calc.total > 100 and input.country in ["FR", "DE"] }}',
        then: [{ set: { band: 'high' }, as: 'band' }],
        else: [{ set: { band: 'low' }, as: 'band' }],
      },
      { respond: { total: '{{ steps.calc.total }}', band: '{{ steps.band.band }}' } },
    ],
  },
  early: {
    steps: [
      { if: '{{ input.stop }}', then: [{ return: { stopped: true, at: '{{ input.stop }}' } }] },
      { respond: { stopped: false } },
    ],
  },
  loop: {
    steps: [
      {
        forEach: '{{ input.rows }}',
        concurrency: 2,
        steps: [{ set: { name: '{{ $uppercase(item.name) }}', at: '{{ index }}' } }],
        as: 'upper',
      },
      {
        parallel: [[{ set: { a: 1 } }], [{ set: { b: '{{ $count(steps.upper) }}' } }]],
        as: 'both',
      },
      { return: { upper: '{{ steps.upper }}', both: '{{ steps.both }}' } },
    ],
  },
  flaky: {
    steps: [
      {
        'http.request': { url: `${url}/flaky`, method: 'POST', body: { n: '{{ input.n }}' } },
        retry: { attempts: 3, backoff: '20ms' },
        as: 'call',
      },
      { respond: '{{ steps.call.body }}' },
    ],
  },
  nap: { steps: [{ sleep: '300ms' }, { respond: { woke: true } }] },
  approval: {
    steps: [
      { 'http.request': { url: `${url}/before`, method: 'POST' } },
      { waitFor: { approval: { message: 'Ship it?' }, timeout: '1h' }, as: 'ok' },
      { 'http.request': { url: `${url}/after`, method: 'POST' } },
      { respond: '{{ steps.ok }}' },
    ],
  },
  broken: {
    steps: [
      { 'http.request': { url: `${url}/one`, method: 'POST' }, as: 'one' },
      { 'http.request': { url: `${url}/two`, method: 'POST' }, as: 'two' },
      { respond: { one: '{{ steps.one.status }}', two: '{{ steps.two.status }}' } },
    ],
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  target = `http://127.0.0.1:${port}`;
  wf = await durableUnderTest({ STAGE_BACKEND_FETCH_ALLOW: `127.0.0.1:${port}` });
}, 60_000);
afterAll(async () => {
  await wf?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let app: { sid: string; sessionId: string };
beforeAll(async () => {
  app = await wf.publish('flows', WORKFLOWS(target));
});

const lines = (qty: number) => [
  { qty, price: 10 },
  { qty: 1, price: 5 },
];

it('branches on an expression over input and earlier steps, and returns early', async () => {
  const high = await wf.run(app.sid, 'branch', { input: { lines: lines(10), country: 'FR' } });
  expect([high.status, high.body.data]).toEqual([200, { total: 105, band: 'high' }]);
  const low = await wf.run(app.sid, 'branch', { input: { lines: lines(10), country: 'US' } });
  expect(low.body.data).toEqual({ total: 105, band: 'low' });
  const steps = await wf.steps(app.sid, low.headers['x-workflow-run'] as string);
  expect(Object.keys(steps)).toEqual(['steps[0]', 'steps[1]', 'steps[1].else[0]', 'steps[2]']);
  expect(steps['steps[1]']).toMatchObject({ block: 'if', output: { branch: 'else' }, status: 'completed' }); // prettier-ignore

  const stop = await wf.run(app.sid, 'early', { input: { stop: 'here' } });
  expect(stop.body.data).toEqual({ stopped: true, at: 'here' });
  expect((await wf.run(app.sid, 'early', { input: {} })).body.data).toEqual({ stopped: false });
});

it('loops with a concurrency bound and runs parallel branches', async () => {
  const rows = ['ada', 'bob', 'cy'].map((name) => ({ name }));
  const res = await wf.run(app.sid, 'loop', { input: { rows } });
  expect(res.body.data).toEqual({
    upper: [
      { name: 'ADA', at: 0 },
      { name: 'BOB', at: 1 },
      { name: 'CY', at: 2 },
    ],
    both: [{ a: 1 }, { b: 3 }],
  });
  const steps = await wf.steps(app.sid, res.headers['x-workflow-run'] as string);
  expect(steps['steps[0]']).toMatchObject({ block: 'forEach', output: { count: 3 } });
  expect(steps['steps[0].forEach[2][0]']).toMatchObject({ block: 'set', output: { name: 'CY', at: 2 } }); // prettier-ignore
  const bad = await wf.run(app.sid, 'loop', { input: { rows: 'nope' } });
  expect([bad.status, bad.body.error.message]).toEqual([400, 'Workflow loop, steps[0] (forEach): its expression gave string, not an array']); // prettier-ignore
});

it('retries a transient failure with the same step key per attempt, and fails a lasting one', async () => {
  plans['/flaky'] = [503, 502];
  const res = await wf.run(app.sid, 'flaky', { input: { n: 7 } });
  expect([res.status, res.body.data]).toEqual([
    200,
    { path: '/flaky', status: 200, echo: { n: 7 } },
  ]);
  const runId = res.headers['x-workflow-run'] as string;
  const calls = received.filter((r) => r.path === '/flaky');
  expect(calls.map((c) => c.key)).toEqual([1, 2, 3].map((n) => `${runId}:steps[0]:${n}`));
  expect((await wf.steps(app.sid, runId))['steps[0]']).toMatchObject({ attempts: 3, status: 'completed' }); // prettier-ignore

  plans['/flaky'] = [503, 503, 503];
  const failed = await wf.run(app.sid, 'flaky', { input: { n: 8 } });
  expect([failed.status, failed.body.error.code]).toEqual([502, 'BAD_GATEWAY']);
  expect(failed.body.error.message).toBe(`Workflow flaky, steps[0] (http.request as "call"): POST ${new URL(target).host} answered 503 Service Unavailable`); // prettier-ignore
});

it('sleeps without a job held, answering 202, and wakes to finish', async () => {
  const res = await wf.run(app.sid, 'nap', {});
  expect([res.status, res.body.data.status]).toEqual([202, 'sleeping']);
  const runId = res.body.data.runId as string;
  const asleep = (await wf.api.get(`/apps/${app.sid}/runs/${runId}`)).body.data;
  expect(asleep).toMatchObject({ status: 'sleeping', wakeAt: expect.any(Number) });
  // Followed live (SSE): the run asleep, then its steps as they are recorded, until it ends.
  const stream = await wf.svc.app.inject({ method: 'GET', url: `/api/v1/stage/apps/${app.sid}/runs/${runId}/stream` }); // prettier-ignore
  expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  const events = stream.body
    .trim()
    .split('\n\n')
    .map((block) => {
      const [event, data] = block.split('\n').map((line) => line.slice(line.indexOf(':') + 2));
      return { event, data: JSON.parse(data) as Json };
    });
  expect(events[0]).toMatchObject({ event: 'run', data: { id: runId, status: 'sleeping' } });
  expect(events.at(-1)).toEqual({ event: 'end', data: { reason: 'the run ended' } });
  const last = events.filter((e) => e.event === 'steps').at(-1)!.data as Json[];
  expect(last.map((s) => [s.path, s.status])).toEqual([['steps[0]', 'completed'], ['steps[1]', 'completed']]); // prettier-ignore
  const done = await wf.settled(app.sid, runId);
  expect(done).toMatchObject({ status: 'completed', result: { woke: true } });
  expect((await wf.steps(app.sid, runId))['steps[0]'].output.slept).toBeGreaterThanOrEqual(300);
});

it('waits for an approval by someone who may change the app, then goes on; a rejection fails it', async () => {
  const res = await wf.run(app.sid, 'approval', {});
  expect([res.status, res.body.data.status]).toEqual([202, 'waiting']);
  const runId = res.body.data.runId as string;
  const approved = await wf.api.post(`/apps/${app.sid}/runs/${runId}/approve`, { comment: 'go' });
  expect(approved.status).toBe(200);
  const done = await wf.settled(app.sid, runId);
  expect(done.result).toEqual({ status: 'approved', by: 'anonymous', comment: 'go' });
  const again = await wf.api.post(`/apps/${app.sid}/runs/${runId}/approve`, {});
  expect([again.status, again.body.error.message]).toEqual([409, `Run ${runId} is completed, not waiting for an approval`]); // prettier-ignore

  const second = (await wf.run(app.sid, 'approval', {})).body.data.runId as string;
  const rejected = await wf.api.post(`/apps/${app.sid}/runs/${second}/reject`, { comment: 'no' });
  expect(rejected.body.data).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN', message: 'Workflow approval, steps[1] (waitFor): rejected by anonymous: no' } }); // prettier-ignore
  expect(received.filter((r) => r.path === '/after')).toHaveLength(1);
});

it('retries a failed run from its failed step, with the workflow as it was or as it is now', async () => {
  plans['/two'] = [400];
  const res = await wf.run(app.sid, 'broken', {});
  expect(res.status).toBe(400);
  const runId = res.headers['x-workflow-run'] as string;
  const retried = await wf.api.post(`/apps/${app.sid}/runs/${runId}/retry`, { workflow: 'original' }); // prettier-ignore
  expect(retried.status).toBe(202);
  expect(['queued', 'running', 'completed']).toContain(retried.body.data.status);
  const done = await wf.settled(app.sid, runId);
  expect(done).toMatchObject({ status: 'completed', result: { one: 200, two: 200 }, retries: 1 });
  // Step one ran once; step two twice, the second time as a new attempt (a new key).
  expect(received.filter((r) => r.path === '/one')).toHaveLength(1);
  expect(received.filter((r) => r.path === '/two').map((r) => r.key)).toEqual([`${runId}:steps[1]:1`, `${runId}:steps[1]:2`]); // prettier-ignore
  const twice = await wf.api.post(`/apps/${app.sid}/runs/${runId}/retry`, {});
  expect([twice.status, twice.body.error.message]).toEqual([409, `Run ${runId} is completed: only a failed run is retried`]); // prettier-ignore

  // `current`: the file changed meanwhile (version 2), the run takes it and records its version.
  plans['/two'] = [400];
  const other = (await wf.run(app.sid, 'broken', {})).headers['x-workflow-run'] as string;
  const changed = WORKFLOWS(target) as Record<string, { steps: Json[] }>;
  changed.broken.steps[2] = { respond: { fixed: true } };
  await wf.update(app.sessionId, changed);
  await wf.api.post(`/apps/${app.sid}/runs/${other}/retry`, { workflow: 'current' });
  expect(await wf.settled(app.sid, other)).toMatchObject({ result: { fixed: true }, fileVersion: 2 }); // prettier-ignore
});

describe('expressions', () => {
  const file = (steps: unknown[]) => JSON.stringify({ version: 1, workflows: { w: { steps } } });
  const problem = (steps: unknown[]) => {
    try {
      parseWorkflow('app', file(steps), 'w');
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('are refused when invalid, naming the step path', () => {
    expect(problem([{ if: '{{ input.a > }}', then: [{ set: { x: '{{ $sum( }}' } }] }])).toMatch(
      /^Workflow w, steps\[0\] \(if\): invalid expression \{\{ input.a > \}\}: /,
    );
    expect(problem([{ if: '{{ true }}', then: [{ set: { x: '{{ $sum( }}' } }] }])).toMatch(
      /^Workflow w, steps\[0\].then\[0\] \(set\)\.x: invalid expression/,
    );
    expect(
      problem([{ forEach: '{{ input.rows }}', concurrency: 99, steps: [{ respond: 1 }] }]),
    ).toBe('Workflow w, steps[0] (forEach): field concurrency must be an integer from 1 to 16');
    expect(problem([{ respond: 1, retry: { attempts: 50 } }])).toBe(
      'Workflow w, steps[0] (respond): field retry.attempts must be an integer from 1 to 10',
    );
    expect(problem([{ sleep: '45d' }])).toMatch(
      /steps\[0\] \(sleep\): its value must be a duration/,
    );
  });

  it('are bounded in time and size', async () => {
    const bounded = await wf.publish('bounds', {
      spin: { steps: [{ set: { x: '{{ ($f := function($n){ $f($n + 1) }; $f(0)) }}' } }] },
      big: { steps: [{ set: { x: '{{ $pad("", 2000000) }}' } }] },
    });
    const spin = await wf.run(bounded.sid, 'spin', {});
    expect(spin.body.error.message).toMatch(/^Workflow spin, steps\[0\] \(set\)\.x: the expression .* failed: .*(timeout|Stack overflow)/); // prettier-ignore
    const big = await wf.run(bounded.sid, 'big', {});
    expect(big.body.error.message).toMatch(/\$pad: width is at most 100000/);
  });
});
