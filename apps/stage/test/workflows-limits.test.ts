import { sql } from '@platform/db';
import { useService } from '@platform/testing';
import { workflowsUnderTest } from './workflows-helpers';

// What a run refuses or survives: sizes (413 naming the step), nesting depth, U+0000, a record
// the database refuses (the run still ends failed, with a generic message), a run left
// `running` by a stopped process (marked INTERRUPTED), bounded-range appends, and what the run
// history keeps (no input or result in lists, getValues values cut to a preview).

const wf = useService(workflowsUnderTest, { scope: 'all' });
let sid: string;
const nest = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};
beforeAll(async () => {
  const append = (range: string) => ({
    'sheets.appendValues': {
      spreadsheetId: '{{ steps.book.spreadsheetId }}',
      range,
      values: '{{ input.rows }}',
    },
  });
  sid = (
    await wf.publish('limits', {
      bomb: { steps: [{ respond: Array.from({ length: 300 }, () => '{{ input.a }}') }] },
      echo: { steps: [{ respond: '{{ input }}' }] },
      nul: { steps: [{ respond: 'a\u0000b' }] },
      write: {
        steps: [
          { 'sheets.createSpreadsheet': {}, as: 'book' },
          { ...append('Sheet1!A1'), as: 'one' },
          { ...append('Sheet1!A1'), as: 'two' },
          { ...append('Sheet1!A1'), as: 'three' },
          {
            'sheets.getValues': { spreadsheetId: '{{ steps.book.spreadsheetId }}', range: 'A:A' },
            as: 'read',
          },
          {
            respond: {
              ranges: [
                '{{ steps.one.updatedRange }}',
                '{{ steps.two.updatedRange }}',
                '{{ steps.three.updatedRange }}',
              ],
              values: '{{ steps.read.values }}',
            },
          },
        ],
      },
    })
  ).sid;
});

const kysely = () => wf.svc.db.kysely.withSchema('stage');
const detail = async (runId: unknown, app = sid) => {
  const res = await wf.api.get(`/apps/${app}/runs/${runId}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

it('refuses a result over 1 MiB with a 413 naming the step, and an input over 256 KiB', async () => {
  const res = await wf.run(sid, 'bomb', { input: { a: 'x'.repeat(200_000) } });
  expect([res.status, res.body.error]).toEqual([
    413,
    {
      code: 'PAYLOAD_TOO_LARGE',
      message:
        "Workflow bomb, steps[0] (respond): the run's result is over 1048576 characters of JSON, at most 1048576 (1 MiB)",
    },
  ]);
  expect((await detail(res.headers['x-workflow-run'])).status).toBe('failed');
  const big = await wf.run(sid, 'echo', { input: { a: 'x'.repeat(300_000) } });
  expect([big.status, big.body.error.message]).toEqual([
    413,
    expect.stringMatching(/^field input is 300008 characters of JSON, at most 262144/),
  ]);
});

it('lists runs without input and result; the detail has them', async () => {
  const res = await wf.run(sid, 'echo', { input: { secret: 's3' } });
  const rows = (await wf.api.get(`/apps/${sid}/runs?workflow=echo`)).body.data;
  expect(rows[0].id).toBe(res.headers['x-workflow-run']);
  expect(rows[0]).not.toHaveProperty('input');
  expect(rows[0]).not.toHaveProperty('result');
  expect(await detail(rows[0].id)).toMatchObject({
    input: { secret: 's3' },
    result: { secret: 's3' },
  });
});

it('refuses nesting deeper than 64 in the input and the definition, naming the field', async () => {
  const deep = await wf.run(sid, 'echo', { input: nest(200) as object });
  expect([deep.status, deep.body.error.message]).toEqual([
    400,
    expect.stringMatching(/^field input nests deeper than 64 levels \(at input(\.a){64}\)$/),
  ]);
  // Deeper than any body may nest on the platform: refused before it is parsed.
  const deeper = await wf.run(sid, 'echo', { input: nest(3000) as object });
  expect([deeper.status, deeper.body.error.message]).toEqual([
    400,
    'The JSON body nests deeper than 256 levels',
  ]);
  expect((await wf.run(sid, 'echo', { input: nest(63) as object })).status).toBe(200);
  // Written as text: JSON.stringify itself overflows the stack on 20000 levels.
  const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const sessionId = await wf.session();
  await wf.push(sessionId, {
    '/app/platform.workflows.json': `{"version":1,"workflows":{"respond":{"steps":[{"respond":${deepText(3000)}}]},"block":{"steps":[{"pulse.track":{"name":"x","properties":${deepText(20000)}}}]}}}`,
  });
  const other = (await wf.api.post('/apps', { sessionId, name: 'deep' })).body.data.sid;
  for (const [name, field] of [
    ['respond', 'payload'],
    ['block', 'properties'],
  ]) {
    const res = await wf.run(other, name);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      new RegExp(
        `^Workflow ${name}, steps\\[0\\] \\([a-z.]+\\): field ${field}(\\.a)+ nests deeper`,
      ),
    );
  }
});

it('refuses U+0000 in input and values naming the field, and strips it from records', async () => {
  const input = await wf.run(sid, 'echo', { input: { ok: 1, bad: ['a\u0000b'] } });
  expect([input.status, input.body.error.message]).toEqual([
    400,
    'field input.bad[0] contains the NUL character (\\u0000), which is not stored',
  ]);
  const { sid: other } = await wf.publish('nul-values', {
    w: {
      steps: [
        { 'sheets.createSpreadsheet': {}, as: 'book' },
        {
          'sheets.appendValues': {
            spreadsheetId: '{{ steps.book.spreadsheetId }}',
            range: 'A1',
            values: [['a\u0000b']],
          },
        },
      ],
    },
  });
  const values = await wf.run(other, 'w');
  expect([values.status, values.body.error.message]).toEqual([
    400,
    'Workflow w, steps[1] (sheets.appendValues): field values[0][0] contains the NUL character (\\u0000), which is not stored',
  ]);
  const run = (await wf.api.get(`/apps/${other}/runs/${values.headers['x-workflow-run']}`)).body
    .data;
  expect([run.status, run.steps[1].input.values]).toEqual(['failed', [['ab']]]);
  const nul = await wf.run(sid, 'nul');
  expect([nul.status, nul.body.data]).toEqual([200, 'ab']);
  expect((await detail(nul.headers['x-workflow-run'])).result).toBe('ab');
});

it('ends a run failed with a generic message when recording a step throws', async () => {
  await sql`alter table stage.workflow_run_steps rename to steps_away`.execute(wf.svc.db.kysely);
  let res;
  try {
    res = await wf.run(sid, 'echo', { input: { a: 1 } });
  } finally {
    await sql`alter table stage.steps_away rename to workflow_run_steps`.execute(wf.svc.db.kysely);
  }
  const runId = res.headers['x-workflow-run'];
  expect([res.status, res.body.error]).toEqual([
    500,
    {
      code: 'INTERNAL_ERROR',
      message: `Workflow echo: the run ${runId} failed unexpectedly (the stage service logged it)`,
    },
  ]);
  expect((await detail(runId)).status).toBe('failed');
});

it('marks a run left running by a stopped process INTERRUPTED, on key reuse or reading', async () => {
  const key = { 'idempotency-key': 'crashed' };
  const first = await wf.run(sid, 'echo', { input: { n: 1 } }, key);
  const other = await wf.run(sid, 'echo', { input: { n: 2 } });
  const age = sql`now() - interval '1 hour'`;
  for (const id of [first.headers['x-workflow-run'], other.headers['x-workflow-run']] as string[]) {
    await kysely()
      .updateTable('workflow_runs')
      .set({ status: 'running', finished_at: null, started_at: age })
      .where('id', '=', id)
      .execute();
    await kysely()
      .updateTable('workflow_run_steps')
      .set({ recorded_at: age })
      .where('run_id', '=', id)
      .execute();
  }
  const again = await wf.run(sid, 'echo', { input: { n: 1 } }, key);
  expect([again.status, again.headers['idempotent-replayed'], again.body.error.message]).toEqual([
    500,
    'true',
    expect.stringMatching(/^Run run_\w+ was interrupted: the stage service stopped while it ran/),
  ]);
  expect((await detail(first.headers['x-workflow-run'])).error.code).toBe('INTERRUPTED');
  expect((await detail(other.headers['x-workflow-run'])).status).toBe('failed');
  // A run still recording steps recently is not touched.
  const fresh = await wf.run(sid, 'echo', { input: { n: 3 } }, { 'idempotency-key': 'fresh' });
  await kysely()
    .updateTable('workflow_runs')
    .set({ status: 'running', started_at: age })
    .where('id', '=', fresh.headers['x-workflow-run'] as string)
    .execute();
  const busy = await wf.run(sid, 'echo', { input: { n: 3 } }, { 'idempotency-key': 'fresh' });
  expect([busy.status, busy.body.error.code]).toEqual([409, 'CONFLICT']);
});

it('appends to a bounded range below the table, as Google does; records a preview of reads', async () => {
  const rows = (n: number) => ({ input: { rows: [[`r${n}`]] } });
  const first = await wf.run(sid, 'write', rows(1));
  expect(first.body.data).toEqual({
    ranges: ['Sheet1!A1:A1', 'Sheet1!A2:A2', 'Sheet1!A3:A3'],
    values: [['r1'], ['r1'], ['r1']],
  });
  const more = await wf.run(sid, 'write', { input: { rows: [['a'], ['b']] } });
  expect(more.body.data.values).toHaveLength(6);
  const steps = (await detail(more.headers['x-workflow-run'])).steps;
  expect(steps[4].output).toMatchObject({
    values: [['a'], ['b'], ['a']],
    recordedRows: 3,
    rows: 6,
  });
});
