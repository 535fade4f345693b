import { eventually, listen } from '@platform/testing';
import { request } from 'undici';
import { focusFile, focusStream } from './focus-fixtures';
import { finished, start, svc } from './sync-setup';
import { MiB, paused, stagingJob, stored, upload as uploadTo, WINDOW } from './upload-helpers';

// Large FOCUS files (issue 12): the CSV as a text/csv body to POST /sync/focus, parsed as it
// arrives (the 200 MB runs are measured by apps/billing/scripts/measure-focus-upload.mjs, too
// slow for every test run; see the README).

beforeEach(() => start({}));

let base: string | undefined;
beforeEach(() => {
  base = undefined;
});
const url = async () => (base ??= await listen(svc.app));
const upload = async (body: AsyncIterable<string> | string, query = WINDOW) =>
  uploadTo(await url(), body, query);

it('imports a 5 MB upload: 202 once every row is staged, then the job merges and keeps nothing staged', async () => {
  const file = focusStream(5 * MiB);
  const res = await upload(file.body);
  expect(res.status).toBe(202);
  const rows = file.rows();
  expect(rows).toBeGreaterThan(25_000);
  // Acknowledged means durable: every row is read and staged before the answer.
  expect(res.body.data).toMatchObject({ provider: 'focus', rowsRead: rows, rowsWritten: rows });
  expect(await finished(res.body.data.id)).toMatchObject({
    status: 'completed',
    error: null,
    rowsRead: rows,
    rowsWritten: rows,
    rowsSkipped: 0,
    itemsCreated: rows,
    itemsUpdated: 0,
    itemsDeleted: 0,
  });
  expect(await stored(svc.db)).toEqual({ staged: 0, skipped: 0 });
}, 300_000);

it('stages rows and shows progress while the body is still arriving (parsed as it arrives)', async () => {
  const file = focusStream(3 * MiB);
  const client = paused(file.body, MiB);
  const answer = upload(client.body);
  // The client has sent a third of its file and waits: rows are staged already, and the job
  // (not answered yet) shows them: never more than are staged, all of them once staging waits for
  // the client (batches are written while the next is read: the count follows the rows).
  const job = await stagingJob(svc);
  expect(job.rowsRead).toBeGreaterThan(0);
  expect((await stored(svc.db)).staged).toBeGreaterThanOrEqual(job.rowsWritten);
  await eventually(async () => {
    const { rowsWritten } = (await svc.get(`/sync/jobs/${job.id}`)).body.data;
    expect((await stored(svc.db)).staged).toBe(rowsWritten);
  });
  client.resume();
  const res = await answer;
  expect(res.status).toBe(202);
  expect(res.body.data).toMatchObject({ id: job.id, rowsRead: file.rows() });
  expect(await finished(job.id)).toMatchObject({ status: 'completed', itemsCreated: file.rows() });
}, 120_000);

it('gives the same result as the same file sent in the JSON body', async () => {
  const { csv, exactCents } = focusFile(300);
  const res = await upload(csv);
  expect((await finished(res.body.data.id)).itemsCreated).toBe(300);
  const again = await svc.post('/sync', {
    provider: 'focus',
    csv,
    from: '2026-01-01',
    to: '2026-01-31',
  });
  expect(await finished(again.body.data.id)).toMatchObject({ itemsCreated: 0, itemsUpdated: 300 });
  expect((await svc.get('/reports/summary')).body.data.totalAmount).toBe(
    Number(exactCents.round(0, 1)),
  );
});

it('accepts a body larger than the JSON limit on this route only', async () => {
  const big = `x,${'y'.repeat(2 * MiB)}`;
  const json = await svc.post('/sync', {
    provider: 'focus',
    csv: big,
    from: '2026-01-01',
    to: '2026-01-31',
  });
  expect(json.status).toBe(413);
  const res = await upload(
    `BilledCost,BillingCurrency,ChargePeriodStart,Note\n1,USD,2026-01-02,${'y'.repeat(2 * MiB)}\n`,
  );
  expect(res.status).toBe(202);
  expect(await finished(res.body.data.id)).toMatchObject({ status: 'completed', itemsCreated: 1 });
});

it('refuses another media type, an empty body and a bad range, storing nothing', async () => {
  const json = await request(`${await url()}/api/v1/billing/sync/focus?${WINDOW}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"csv":"a"}',
  });
  expect(json.statusCode).toBe(415);
  expect(((await json.body.json()) as any).error.message).toBe(
    'Unsupported content type: application/json; send the FOCUS CSV as text/csv',
  );
  const empty = await upload('');
  expect(empty.status).toBe(400);
  expect(empty.body.error.message).toBe(
    'The request body is empty; send the FOCUS CSV as text/csv',
  );
  const inverted = await upload('a\n', 'from=2026-02-01&to=2026-01-01');
  expect(inverted.body.error.message).toBe('from must not be after to');
  expect((await svc.get('/sync/jobs')).body.data).toEqual([]);
  expect(await stored(svc.db)).toEqual({ staged: 0, skipped: 0 });
});
