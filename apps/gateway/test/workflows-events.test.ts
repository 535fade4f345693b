import { AUTH_ENV, CALLERS, eventually, identityHeaders, type Json } from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Event triggers of workflows (issue 40, item 6): a git.push appended to the ledger (as git
// records one) starts exactly one run of the workflow listening to it, with the event as input;
// one its `match` refuses starts none; later polls start nothing more.

let gw: GatewayUnderTest;
beforeAll(async () => {
  gw = await gatewayUnderTest({ ...AUTH_ENV, STAGE_WORKFLOW_EVENT_POLL_MS: '100' });
}, 30_000);
afterAll(() => gw.close());

async function call(method: string, url: string, payload?: object) {
  const res = await gw.app.inject({
    method: method as 'GET',
    url,
    headers: await identityHeaders(CALLERS.admin),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const cursor = () =>
  gw.db
    .schema<{ workflow_cursors: { name: string; cursor: string; updated_at: Date } }>('stage')
    .selectFrom('workflow_cursors')
    .selectAll()
    .executeTakeFirst();

const WORKFLOWS = {
  version: 1,
  workflows: {
    onMain: {
      triggers: [{ event: 'git.push', match: "{{ event.metadata.ref = 'refs/heads/main' }}" }],
      steps: [{ return: { ref: '{{ input.event.metadata.ref }}', seq: '{{ input.event.seq }}' } }],
    },
    manual: { steps: [{ return: 1 }] },
  },
};

const push = (ref: string) =>
  call('POST', '/api/v1/ledger/events', {
    action: 'git.push',
    actor: 'ada@example.com',
    resource: 'git.repository:shop',
    service: 'git',
    metadata: { ref, before: '0'.repeat(40), after: 'a'.repeat(40), commits: 1 },
  });

it('starts one run per matching event, with the event as input, and nothing twice', async () => {
  const session = (await call('POST', '/api/v1/stage/sessions', {})).body.data.id as string;
  const files = { '/app/platform.workflows.json': JSON.stringify(WORKFLOWS) };
  expect((await call('POST', `/api/v1/stage/sessions/${session}/push`, { files })).status).toBe(200); // prettier-ignore
  const app = await call('POST', '/api/v1/stage/apps', { sessionId: session, name: 'pushed' });
  expect(app.status).toBe(201);
  const sid = app.body.data.sid as string;
  const listed = (await call('GET', `/api/v1/stage/apps/${sid}/workflows`)).body.data;
  expect(listed[0].triggers).toEqual([{ ...WORKFLOWS.workflows.onMain.triggers[0], active: true }]); // prettier-ignore
  // The poll has a cursor (events recorded before it do not fire).
  await eventually(async () => expect(await cursor()).toBeDefined(), { timeout: 15_000 });

  const other = await push('refs/heads/feature');
  const main = await push('refs/heads/main');
  expect([other.status, main.status]).toEqual([201, 201]);
  const event = main.body.data;
  const runs = async () =>
    (await call('GET', `/api/v1/stage/apps/${sid}/runs?limit=100`)).body.data as Json[];
  await eventually(async () => expect((await runs()).length).toBeGreaterThan(0), { timeout: 15_000 }); // prettier-ignore
  const [run] = await runs();
  expect(run).toMatchObject({ workflow: 'onMain', trigger: 'event', idempotencyKey: `event:${event.id}:${sid}:onMain` }); // prettier-ignore
  await eventually(async () => {
    const got = (await call('GET', `/api/v1/stage/apps/${sid}/runs/${run.id}`)).body.data;
    expect(got).toMatchObject({ status: 'completed', input: { event }, result: { ref: 'refs/heads/main', seq: event.seq } }); // prettier-ignore
  });

  // Two more polls: the cursor moved past both events, and no second run.
  const seen = (await cursor())!;
  expect(Number(seen.cursor)).toBeGreaterThanOrEqual(event.seq);
  for (let i = 0; i < 2; i++) {
    const before = (await cursor())!.updated_at.getTime();
    await eventually(async () => expect((await cursor())!.updated_at.getTime()).toBeGreaterThan(before), { timeout: 15_000 }); // prettier-ignore
  }
  expect((await runs()).map((r) => r.workflow)).toEqual(['onMain']);
});
