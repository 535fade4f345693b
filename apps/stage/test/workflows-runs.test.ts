import { useService } from '@platform/testing';
import { workflowsUnderTest } from './workflows-helpers';

// Runs through the route: what stops a run from starting (404, 400), failed steps recorded and
// answered naming the step, the run history (list and detail), and Idempotency-Key (a repeat
// answers the first run without running again; concurrent repeats run once).

const wf = useService(workflowsUnderTest, { scope: 'all' });
let sid: string;
beforeAll(async () => {
  sid = (
    await wf.publish(
      'runs',
      {
        hello: {
          steps: [
            {
              respond: {
                greeting: '{{ config.greeting }}, {{ input.who }}',
                n: '{{ input.n }}',
                app: '{{ app.sid }}',
              },
            },
          ],
        },
        book: {
          steps: [
            { 'sheets.createSpreadsheet': { title: '{{ input.title }}' }, as: 'book' },
            { respond: { id: '{{ steps.book.spreadsheetId }}' } },
          ],
        },
        broken: {
          steps: [
            { 'sheets.createSpreadsheet': { title: 'first' }, as: 'made' },
            { respond: { x: '{{ input.missing }}' } },
          ],
        },
        whoami: { steps: [{ respond: { email: '{{ auth.email }}' } }] },
        track: { steps: [{ 'pulse.track': { name: 'x', userId: '{{ auth.kind }}' } }] },
      },
      { greeting: 'Hello' },
    )
  ).sid;
});

const spreadsheets = () =>
  wf.svc.db.kysely.withSchema('stage').selectFrom('spreadsheets').selectAll().execute();

it('runs by sid or name, answering the respond payload with the run named in a header', async () => {
  const res = await wf.run('RUNS', 'hello', { input: { who: 'Ada', n: 7 } });
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ greeting: 'Hello, Ada', n: 7, app: sid });
  expect(res.headers['x-workflow-run']).toMatch(/^run_[A-Za-z0-9]{12}$/);
  expect(res.headers['idempotent-replayed']).toBeUndefined();
});

it.each([
  ['unknown app', 'nope', 'hello', {}, 404, 'App not found: nope'],
  [
    'unknown workflow',
    'runs',
    'nope',
    {},
    404,
    'Workflow not found: nope (runs has hello, book, broken, whoami, track)',
  ],
  ['unknown body field', 'runs', 'hello', { inputs: {} }, 400, 'body has an unknown field: inputs'],
  ['input not an object', 'runs', 'hello', { input: [1] }, 400, undefined],
])('%s is refused before running', async (_, app, workflow, body, status, message) => {
  const res = await wf.run(app, workflow, body);
  expect(res.status).toBe(status);
  if (message) expect(res.body.error.message).toBe(message);
  expect(res.headers['x-workflow-run']).toBeUndefined();
});

it('answers 404 for an app without a workflows file, and 400 for a broken one', async () => {
  const sessionId = await wf.session();
  await wf.push(sessionId, { '/app/index.html': '<p>hi</p>' });
  await wf.api.post('/apps', { sessionId, name: 'nofile' });
  const none = await wf.run('nofile', 'x');
  expect([none.status, none.body.error.message]).toEqual([
    404,
    '/app/platform.workflows.json of app not found: nofile',
  ]);
  await wf.push(sessionId, {
    '/app/platform.workflows.json':
      '{"version":1,"workflows":{"x":{"steps":[{"respond":{},"as":"a b"}]}}}',
  });
  const bad = await wf.run('nofile', 'x');
  expect([bad.status, bad.body.error.message]).toEqual([
    400,
    'Workflow x, steps[0] (respond): field as must be a name of letters, digits, _ or - (1-64, not starting with a digit or -)',
  ]);
});

it('stops at a failed step, answers its error naming it, and records the run failed', async () => {
  const res = await wf.run(sid, 'broken', { input: { keep: 1 } });
  expect([res.status, res.body.error]).toEqual([
    400,
    {
      code: 'BAD_REQUEST',
      message: 'Workflow broken, steps[1] (respond): Unknown template variable input.missing',
    },
  ]);
  const runId = res.headers['x-workflow-run'];
  const detail = (await wf.api.get(`/apps/${sid}/runs/${runId}`)).body.data;
  expect(detail).toMatchObject({
    id: runId,
    appSid: sid,
    workflow: 'broken',
    status: 'failed',
    input: { keep: 1 },
    result: null,
    error: { code: 'BAD_REQUEST', message: res.body.error.message },
    caller: 'anonymous',
    idempotencyKey: null,
  });
  expect(detail.finishedAt).toBeGreaterThanOrEqual(detail.startedAt);
  expect(detail.steps).toEqual([
    {
      index: 0,
      block: 'sheets.createSpreadsheet',
      as: 'made',
      input: { title: 'first' },
      output: expect.objectContaining({ title: 'first', spreadsheetId: expect.any(String) }),
      error: null,
      durationMs: expect.any(Number),
    },
    {
      index: 1,
      block: 'respond',
      as: null,
      input: null,
      output: null,
      error: res.body.error.message,
      durationMs: expect.any(Number),
    },
  ]);
});

it('refuses auth.email of a caller without an email, naming it', async () => {
  const res = await wf.run(sid, 'whoami');
  expect([res.status, res.body.error.message]).toEqual([
    400,
    'Workflow whoami, steps[0] (respond): auth.email is unavailable: the caller (anonymous) has no email',
  ]);
});

it('answers 502 naming the step when a peer service cannot be reached', async () => {
  const res = await wf.run(sid, 'track');
  expect(res.status).toBe(502);
  expect(res.body.error.message).toMatch(
    /^Workflow track, steps\[0\] \(pulse.track\): The pulse service cannot be reached: /,
  );
});

it('lists runs newest first, filtered by workflow and status, paged', async () => {
  const { sid: other } = await wf.publish('listing', {
    a: { steps: [{ respond: 1 }] },
    b: { steps: [{ respond: '{{ input.x }}' }] },
  });
  const ids: string[] = [];
  for (const [name, input] of [
    ['a', {}],
    ['b', { x: 1 }],
    ['b', {}],
    ['a', {}],
  ] as const)
    ids.push((await wf.run(other, name, { input })).headers['x-workflow-run'] as string);
  const list = async (query: string) =>
    ((await wf.api.get(`/apps/listing/runs${query}`)).body.data as Array<{ id: string }>).map(
      (r) => r.id,
    );
  expect(await list('')).toEqual([...ids].reverse());
  expect(await list('?workflow=b')).toEqual([ids[2], ids[1]]);
  expect(await list('?status=failed')).toEqual([ids[2]]);
  expect(await list('?workflow=a&status=completed&limit=1&offset=1')).toEqual([ids[0]]);
  expect((await wf.api.get('/apps/listing/runs?status=odd')).status).toBe(400);
  expect((await wf.api.get(`/apps/runs/runs/${ids[0]}`)).status).toBe(404);
  expect((await wf.api.get('/apps/nope/runs')).status).toBe(404);
});

describe('Idempotency-Key', () => {
  it('answers a repeat with the first run, without running it again', async () => {
    const before = (await spreadsheets()).length;
    const key = { 'idempotency-key': 'order-1' };
    const first = await wf.run(sid, 'book', { input: { title: 'T' } }, key);
    const again = await wf.run(sid, 'book', { input: { title: 'T' } }, key);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers['x-workflow-run']).toBe(first.headers['x-workflow-run']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await spreadsheets()).length).toBe(before + 1);
    // Another app may use the same key for its own run.
    const { sid: other } = await wf.publish('other-keys', {
      book: { steps: [{ 'sheets.createSpreadsheet': {} }] },
    });
    expect((await wf.run(other, 'book', {}, key)).headers['idempotent-replayed']).toBeUndefined();
  });

  it('is 409 for another workflow or input, and replays a failed run as it failed', async () => {
    const key = { 'idempotency-key': 'k-2' };
    await wf.run(sid, 'book', { input: { title: 'A' } }, key);
    for (const [name, input] of [
      ['book', { title: 'B' }],
      ['hello', { title: 'A' }],
    ] as const) {
      const res = await wf.run(sid, name, { input }, key);
      expect([res.status, res.body.error.code]).toEqual([409, 'CONFLICT']);
      expect(res.body.error.message).toMatch(
        /^Idempotency-Key k-2 was used for another request in run run_\w+ \(workflow book\)/,
      );
    }
    const failKey = { 'idempotency-key': 'k-3' };
    const failed = await wf.run(sid, 'broken', {}, failKey);
    const count = (await spreadsheets()).length;
    const replayed = await wf.run(sid, 'broken', {}, failKey);
    expect([replayed.status, replayed.body, replayed.headers['x-workflow-run']]).toEqual([
      400,
      failed.body,
      failed.headers['x-workflow-run'],
    ]);
    expect((await spreadsheets()).length).toBe(count);
  });

  it('refuses a key over 200 characters or with spaces', async () => {
    for (const key of ['x'.repeat(201), 'a key'])
      expect((await wf.run(sid, 'hello', {}, { 'idempotency-key': key })).status).toBe(400);
    const input = { who: 'Ada', n: 1 };
    expect(
      (await wf.run(sid, 'hello', { input }, { 'idempotency-key': 'x'.repeat(200) })).status,
    ).toBe(200);
  });

  it('runs concurrent repeats once', async () => {
    const before = (await spreadsheets()).length;
    const key = { 'idempotency-key': 'concurrent' };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => wf.run(sid, 'book', { input: { title: 'C' } }, key)),
    );
    const runs = new Set(results.map((r) => r.headers['x-workflow-run']).filter(Boolean));
    expect(runs.size).toBeLessThanOrEqual(1);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(
      results.filter((r) => r.status === 200 && !r.headers['idempotent-replayed']),
    ).toHaveLength(1);
    expect((await spreadsheets()).length).toBe(before + 1);
    const rows = await wf.svc.db.kysely
      .withSchema('stage')
      .selectFrom('workflow_runs')
      .where('idempotency_key', '=', 'concurrent')
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
  });
});
