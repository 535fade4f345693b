import type { Json } from '@platform/testing';
import { workflowWorld, type WorkflowWorld } from './workflows-setup';

// The sheets.* blocks with STAGE_SHEETS_PROVIDER=google: Google Sheets v4 (a local server
// speaking its wire format) as ada, with her delegated token from the identity service, and
// every refusal mapped and naming the step.

let w: WorkflowWorld;
beforeAll(async () => {
  w = await workflowWorld();
}, 30_000);
afterAll(() => w.close());

describe('Google Sheets as the signed-in user', () => {
  const flow = {
    steps: [
      {
        'sheets.createSpreadsheet': { title: '{{ input.title }}', sheets: ['Orders'] },
        as: 'book',
      },
      {
        'sheets.appendValues': {
          spreadsheetId: '{{ steps.book.spreadsheetId }}',
          range: 'Orders!A1',
          values: [
            ['Name', 'Qty'],
            ['{{ input.who }}', 2],
          ],
        },
        as: 'rows',
      },
      {
        'sheets.getValues': {
          spreadsheetId: '{{ steps.book.spreadsheetId }}',
          range: 'Orders!A:B',
        },
        as: 'read',
      },
      { respond: { book: '{{ steps.book }}', rows: '{{ steps.rows }}', read: '{{ steps.read }}' } },
    ],
  };
  const read = {
    steps: [{ 'sheets.getValues': { spreadsheetId: '{{ input.id }}', range: 'A1:B2' }, as: 'r' }],
  };
  const SCOPE = ['https://www.googleapis.com/auth/spreadsheets'];

  it('creates, appends and reads with her delegated token, answering the embedded shapes', async () => {
    const { sid } = await w.publish('gsheets', { flow }, SCOPE);
    const res = await w.run(sid, 'flow', { title: 'Orders', who: 'Ada' });
    expect(res.status).toBe(200);
    const id = res.body.data.book.spreadsheetId;
    expect(res.body.data).toEqual({
      book: {
        spreadsheetId: id,
        url: `https://docs.google.com/spreadsheets/d/${id}/edit`,
        title: 'Orders',
        sheets: [{ sheetId: 0, title: 'Orders', index: 0 }],
      },
      rows: {
        spreadsheetId: id,
        tableRange: null,
        updatedRange: 'Orders!A1:B2',
        updatedRows: 2,
        updatedColumns: 2,
        updatedCells: 4,
      },
      read: {
        spreadsheetId: id,
        range: 'Orders!A1:Z1000',
        majorDimension: 'ROWS',
        values: [
          ['Name', 'Qty'],
          ['Ada', 2],
        ],
      },
    });
    const append = w.sheets.requests.find((r) => r.url.includes(':append'))!;
    expect(append.url).toBe(
      `/v4/spreadsheets/${id}/values/Orders!A1:append?valueInputOption=RAW&insertDataOption=OVERWRITE`,
    );
    expect(append.headers.authorization).toBe(`Bearer ${w.token()}`);
    const detail = JSON.stringify(
      (await w.call('GET', `/api/v1/stage/apps/${sid}/runs/${res.run}`)).body.data,
    );
    expect(detail).not.toContain(w.token());
  });

  it.each([
    [
      'quota',
      'flow',
      { title: 'quota', who: 'x' },
      429,
      /steps\[0\] \(sheets.createSpreadsheet as "book"\): Google Sheets quota exhausted \(429 RESOURCE_EXHAUSTED\): Quota exceeded/,
    ],
    [
      'an outage',
      'flow',
      { title: 'boom', who: 'x' },
      502,
      /steps\[0\] \(sheets.createSpreadsheet as "book"\): Google Sheets failed on creating a spreadsheet \(500 INTERNAL\)/,
    ],
    [
      'no permission',
      'read',
      { id: 'forbidden' },
      403,
      /steps\[0\] \(sheets.getValues as "r"\): Google Sheets refused reading spreadsheet forbidden \(A1:B2\) for ada@example.com \(403 PERMISSION_DENIED\)/,
    ],
    [
      'an unknown spreadsheet',
      'read',
      { id: 'nope' },
      404,
      /Google Sheets: reading spreadsheet nope \(A1:B2\): not found \(404 NOT_FOUND\)/,
    ],
  ])('maps %s', async (_, workflow, input, status, message) => {
    const { sid } = await w.publish(`g-${workflow}-${status}`, { flow, read }, SCOPE);
    const res = await w.run(sid, workflow, input);
    expect([res.status, res.body.error.message]).toEqual([status, expect.stringMatching(message)]);
  });

  it('refuses a revoked token, a session without a spreadsheets scope, and an API key', async () => {
    const { sid } = await w.publish('g-token', { read }, SCOPE);
    const saved = w.token();
    w.setToken('rotated');
    const revoked = await w.run(sid, 'read', { id: 'x' });
    w.setToken(saved);
    expect([revoked.status, revoked.body.error.message]).toEqual([
      403,
      expect.stringMatching(
        /Google Sheets refused ada@example.com's token \(401 UNAUTHENTICATED\)/,
      ),
    ]);
    const { sid: noScope, session } = await w.publish('g-scope', { read }, ['openid']);
    const res = await w.run(noScope, 'read', { id: 'x' });
    expect([res.status, res.body.error.message]).toEqual([
      403,
      `Workflow read, steps[0] (sheets.getValues as "r"): The Google scopes of session ${session} (app g-scope (${noScope})) include no spreadsheets scope: PUT /api/v1/stage/sessions/${session}/google-scopes with https://www.googleapis.com/auth/spreadsheets`,
    ]);
    const key = (await w.call('POST', '/api/v1/passport/keys', { name: 'ci' })).body.data.key;
    const byKey = await fetch(`${w.base}/api/v1/run/${sid}/read`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { id: 'x' } }),
    });
    expect([byKey.status, ((await byKey.json()) as Json).error.message]).toEqual([
      403,
      'Workflow read, steps[0] (sheets.getValues as "r"): Google Sheets acts as the signed-in user, and the caller (key:ci) is not one',
    ]);
  });
});
