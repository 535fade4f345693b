import { request as httpRequest } from 'node:http';
import { sql } from '@platform/db';
import { jsonApi, listen, serviceUnderTest, sleep, type ServiceUnderTest } from '@platform/testing';
import { billing } from '../src/index';
import { focusStream } from './focus-fixtures';
import { MiB, paused, stagingJob, stored, upload, WINDOW } from './upload-helpers';

// FOCUS uploads that do not end well (issue 12): a client that goes away, a body over the limit,
// a file that is not a FOCUS CSV, a run that lost its job. Each leaves no staged row behind, its
// sync job failed with what went wrong, and the service serving.

let svc: ServiceUnderTest;
let base: string;
const api = () => jsonApi(svc.app, billing.prefix);
afterEach(() => svc.close());

async function serve(env: Record<string, string> = {}) {
  svc = await serviceUnderTest(billing, { env, jobs: { pollMs: 20 } });
  base = await listen(svc.app);
}
async function settled(id: string) {
  for (;;) {
    const job = (await api().get(`/sync/jobs/${id}`)).body.data;
    if (job.status !== 'running') return job;
    await sleep(20);
  }
}
const stillServing = async () => expect((await api().get('/items')).status).toBe(200);

it('fails the sync of a client that goes away mid-upload, and drops what it staged', async () => {
  await serve();
  const client = paused(focusStream(3 * MiB).body, MiB);
  const req = httpRequest(`${base}/api/v1/billing/sync/focus?${WINDOW}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
  });
  req.on('error', () => undefined);
  void (async () => {
    for await (const piece of client.body) if (!req.write(piece)) await sleep(5);
  })();
  const job = await stagingJob(api());
  req.destroy();
  const failed = await settled(job.id);
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(
    /^The upload was cut short after \d+ bytes: the client went away, or the body took longer than REQUEST_TIMEOUT_MS$/,
  );
  expect(await stored(svc.db)).toMatchObject({ staged: 0 });
  expect((await api().get('/items')).body.data).toEqual([]);
  await stillServing();
}, 60_000);

it('refuses a body over BILLING_FOCUS_MAX_BYTES with 413, as it arrives or by its length', async () => {
  await serve({ BILLING_FOCUS_MAX_BYTES: String(MiB) });
  // Streamed (no length known): staging starts, then stops at the limit.
  const streamed = await upload(base, focusStream(3 * MiB).body);
  expect(streamed.status).toBe(413);
  expect(streamed.body.error).toEqual({
    code: 'PAYLOAD_TOO_LARGE',
    message: `Request body exceeds the limit of ${MiB} bytes`,
  });
  const [job] = (await api().get('/sync/jobs')).body.data;
  expect(job).toMatchObject({
    status: 'failed',
    error: `Request body exceeds the limit of ${MiB} bytes`,
  });
  expect(await stored(svc.db)).toMatchObject({ staged: 0 });
  // A content-length over the limit is refused before any job is made.
  const declared = await upload(base, 'x'.repeat(MiB + 1));
  expect(declared.status).toBe(413);
  expect((await api().get('/sync/jobs')).body.data).toHaveLength(1);
  await stillServing();
}, 60_000);

it('answers 400 to a file that is not a FOCUS CSV and fails its sync job with the same words', async () => {
  await serve();
  const res = await upload(base, 'Cost,Currency\n1,USD\n');
  expect(res.status).toBe(400);
  expect(res.body.error.message).toBe('The FOCUS CSV has no BilledCost column');
  const [job] = (await api().get('/sync/jobs')).body.data;
  expect(job).toMatchObject({ status: 'failed', error: 'The FOCUS CSV has no BilledCost column' });
  expect(await stored(svc.db)).toEqual({ staged: 0, skipped: 0 });
  await stillServing();
});

it('does not merge staged rows in a run that lost its job; the run that took it over does', async () => {
  await serve();
  const file = focusStream(2 * MiB);
  const client = paused(file.body, MiB);
  const answer = upload(base, client.body);
  const { id } = await stagingJob(api());
  // Another instance claims the durable job (attempt 2) while this one still receives the file.
  const jobs = sql`update billing.jobs set attempts = attempts + 1, locked_by = 'another'
    where payload->>'syncJobId' = ${id} returning attempts`;
  expect((await jobs.execute(svc.db.kysely)).rows).toEqual([{ attempts: 2 }]);
  client.resume();
  expect((await answer).status).toBe(202);
  // This run reaches its merge: the fence finds the job is no longer its own, and it writes nothing.
  await sleep(500);
  expect((await api().get(`/sync/jobs/${id}`)).body.data).toMatchObject({
    status: 'running',
    itemsCreated: 0,
  });
  expect((await api().get('/items')).body.data).toEqual([]);
  expect((await stored(svc.db)).staged).toBe(file.rows());
  // The other instance dies too; its lease expires and this one takes the job over (attempt 3):
  // the rows were all staged (the upload was answered 202), so it merges them.
  await sql`update billing.jobs set lease_until = now() - interval '1 second'
    where payload->>'syncJobId' = ${id}`.execute(svc.db.kysely);
  expect(await settled(id)).toMatchObject({ status: 'completed', itemsCreated: file.rows() });
  expect(await stored(svc.db)).toMatchObject({ staged: 0 });
}, 60_000);
