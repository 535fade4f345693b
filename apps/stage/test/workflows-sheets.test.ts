import { useService } from '@platform/testing';
import { workflowsUnderTest } from './workflows-helpers';

// The embedded spreadsheets (the default provider) through workflow runs: create, append (the
// table found and written after, values kept as given), get (trailing empties dropped), A1
// ranges with sheets and quoted names, and what each refusal names.

const wf = useService(workflowsUnderTest, { scope: 'all' });

const sheetsFlow = {
  steps: [
    {
      'sheets.createSpreadsheet': { title: '{{ input.title }}', sheets: ['Orders', 'My Data'] },
      as: 'book',
    },
    {
      'sheets.appendValues': {
        spreadsheetId: '{{ steps.book.spreadsheetId }}',
        range: 'Orders!A1',
        values: [
          ['Name', 'Qty', 'Paid'],
          ['{{ input.who }}', '{{ input.qty }}', true],
        ],
      },
      as: 'first',
    },
    {
      'sheets.appendValues': {
        spreadsheetId: '{{ steps.book.spreadsheetId }}',
        range: 'Orders!A:C',
        values: [['Bob', 3.5, null, 'ignored?']],
      },
      as: 'second',
    },
    {
      'sheets.appendValues': {
        spreadsheetId: '{{ steps.book.spreadsheetId }}',
        range: "'My Data'!B2",
        values: '{{ input.rows }}',
        valueInputOption: 'RAW',
      },
      as: 'third',
    },
    {
      'sheets.getValues': { spreadsheetId: '{{ steps.book.spreadsheetId }}', range: 'Orders' },
      as: 'all',
    },
    {
      'sheets.getValues': {
        spreadsheetId: '{{ steps.book.spreadsheetId }}',
        range: "'My Data'!A1:D9",
        majorDimension: 'COLUMNS',
      },
      as: 'cols',
    },
    {
      'sheets.getValues': {
        spreadsheetId: '{{ steps.book.spreadsheetId }}',
        range: 'Orders!E5:F9',
      },
      as: 'none',
    },
    {
      respond: {
        book: '{{ steps.book }}',
        first: '{{ steps.first }}',
        second: '{{ steps.second }}',
        third: '{{ steps.third.updatedRange }}',
        all: '{{ steps.all }}',
        cols: '{{ steps.cols.values }}',
        none: '{{ steps.none }}',
      },
    },
  ],
};

it('creates a spreadsheet, appends after the table and reads values back as given', async () => {
  const { sid } = await wf.publish('sheets', { orders: sheetsFlow });
  const res = await wf.run(sid, 'orders', {
    input: { title: 'Shop orders', who: 'Ada', qty: 2, rows: [['x'], ['y', 'z']] },
  });
  expect(res.status).toBe(200);
  const out = res.body.data;
  const id = out.book.spreadsheetId;
  expect(out.book).toEqual({
    spreadsheetId: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
    url: `/api/v1/stage/apps/${sid}/spreadsheets/${id}`,
    title: 'Shop orders',
    sheets: [
      { sheetId: 0, title: 'Orders', index: 0 },
      { sheetId: 1, title: 'My Data', index: 1 },
    ],
  });
  expect(out.first).toEqual({
    spreadsheetId: id,
    tableRange: null,
    updatedRange: 'Orders!A1:C2',
    updatedRows: 2,
    updatedColumns: 3,
    updatedCells: 6,
  });
  expect(out.second).toMatchObject({ tableRange: 'Orders!A1:C2', updatedRange: 'Orders!A3:D3' });
  expect(out.third).toBe("'My Data'!B2:C3");
  // RAW: numbers and booleans stay numbers and booleans; a null cell is empty.
  expect(out.all).toEqual({
    spreadsheetId: id,
    range: 'Orders!A1:D3',
    majorDimension: 'ROWS',
    values: [
      ['Name', 'Qty', 'Paid'],
      ['Ada', 2, true],
      ['Bob', 3.5, null, 'ignored?'],
    ],
  });
  expect(out.cols).toEqual([[], [null, 'x', 'y'], [null, null, 'z']]);
  expect(out.none).toMatchObject({ range: 'Orders!E5:F9', values: [] });

  const read = await wf.api.get(`/apps/sheets/spreadsheets/${id}`);
  expect(read.body.data.sheets[1]).toEqual({
    sheetId: 1,
    title: 'My Data',
    index: 1,
    values: [[], [null, 'x'], [null, 'y', 'z']],
  });
});

it('appends within the range columns only, below the last row of that table', async () => {
  const { sid } = await wf.publish('columns', {
    fill: {
      steps: [
        { 'sheets.createSpreadsheet': {}, as: 'b' },
        {
          'sheets.appendValues': {
            spreadsheetId: '{{ steps.b.spreadsheetId }}',
            range: 'Sheet1!A1',
            values: [[1], [2], [3]],
          },
        },
        {
          'sheets.appendValues': {
            spreadsheetId: '{{ steps.b.spreadsheetId }}',
            range: 'Sheet1!C1:D',
            values: [['c1', 'd1']],
          },
          as: 'c',
        },
        {
          'sheets.appendValues': {
            spreadsheetId: '{{ steps.b.spreadsheetId }}',
            range: 'C1:D',
            values: [['c2']],
          },
          as: 'c2',
        },
        {
          'sheets.getValues': {
            spreadsheetId: '{{ steps.b.spreadsheetId }}',
            range: 'Sheet1!A1:D10',
          },
          as: 'g',
        },
        {
          respond: {
            b: '{{ steps.b.title }}',
            c: '{{ steps.c.updatedRange }}',
            c2: '{{ steps.c2 }}',
            values: '{{ steps.g.values }}',
          },
        },
      ],
    },
  });
  const res = await wf.run(sid, 'fill');
  expect(res.body.data).toEqual({
    b: 'Untitled spreadsheet',
    c: 'Sheet1!C1:D1',
    c2: expect.objectContaining({ tableRange: 'Sheet1!C1:D1', updatedRange: 'Sheet1!C2:C2' }),
    values: [[1, null, 'c1', 'd1'], [2, null, 'c2'], [3]],
  });
});

describe('refusals name the step and what was wrong', () => {
  let sid: string;
  let other: string;
  beforeAll(async () => {
    const steps = (range: string, spreadsheetId = '{{ input.id }}') => ({
      steps: [{ 'sheets.getValues': { spreadsheetId, range }, as: 'read' }],
    });
    sid = (
      await wf.publish('refusals', {
        make: {
          steps: [
            { 'sheets.createSpreadsheet': { sheets: ['Data'] }, as: 'b' },
            { respond: '{{ steps.b.spreadsheetId }}' },
          ],
        },
        badSheet: steps('Nope!A1'),
        badRange: steps('Data!C3:A1'),
        read: steps('Data'),
        dupSheets: { steps: [{ 'sheets.createSpreadsheet': { sheets: ['A', 'a'] } }] },
        empty: {
          steps: [
            {
              'sheets.appendValues': { spreadsheetId: '{{ input.id }}', range: 'Data', values: [] },
            },
          ],
        },
      })
    ).sid;
    other = (await wf.publish('other-app', { read: steps('A1:B2') })).sid;
  });

  it.each([
    [
      'badSheet',
      400,
      'BAD_REQUEST',
      /^Workflow badSheet, steps\[0\] \(sheets.getValues as "read"\): Unable to parse range: Nope!A1 \(no sheet Nope\)$/,
    ],
    [
      'badRange',
      400,
      'BAD_REQUEST',
      /steps\[0\] \(sheets.getValues as "read"\): Unable to parse range: Data!C3:A1$/,
    ],
    [
      'dupSheets',
      400,
      'BAD_REQUEST',
      /steps\[0\] \(sheets.createSpreadsheet\): field sheets: a sheet with the name "a" already exists$/,
    ],
    ['empty', 400, 'BAD_REQUEST', /steps\[0\] \(sheets.appendValues\): field values has no rows$/],
  ])('%s', async (name, status, code, message) => {
    const id = (await wf.run(sid, 'make')).body.data;
    const res = await wf.run(sid, name, { input: { id } });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(res.body.error.message).toMatch(message);
  });

  it("never reaches another app's spreadsheet, nor an unknown one", async () => {
    const id = (await wf.run(sid, 'make')).body.data;
    expect((await wf.run(sid, 'read', { input: { id } })).status).toBe(200);
    for (const [app, spreadsheet] of [
      [other, id],
      [sid, 'nope'],
    ]) {
      const res = await wf.run(app, 'read', { input: { id: spreadsheet } });
      expect([res.status, res.body.error.message]).toEqual([
        404,
        `Workflow read, steps[0] (sheets.getValues as "read"): Spreadsheet not found: ${spreadsheet}`,
      ]);
    }
    expect((await wf.api.get(`/apps/${other}/spreadsheets/${id}`)).status).toBe(404);
  });
});
