import { Type } from '@platform/core';
import type { Selectable } from '@platform/db';
import type {
  SpreadsheetRowsTable,
  SpreadsheetSheetsTable,
  SpreadsheetsTable,
} from '../database/workflows.js';
import { trimValues, type Cell } from '../domain/workflows/sheets.js';
import { EpochMs } from './sessions.js';

export const SpreadsheetParams = Type.Object({
  sid: Type.String({ minLength: 1, maxLength: 100, description: 'The app sid or name' }),
  spreadsheetId: Type.String({ minLength: 1, maxLength: 64 }),
});

const CellSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const SpreadsheetSchema = Type.Object({
  spreadsheetId: Type.String(),
  title: Type.String(),
  createdAt: EpochMs('When it was created'),
  sheets: Type.Array(
    Type.Object({
      sheetId: Type.Integer(),
      title: Type.String(),
      index: Type.Integer(),
      values: Type.Array(Type.Array(CellSchema)),
    }),
  ),
});

/** An embedded spreadsheet of an app with every sheet's values (GET .../spreadsheets/:id). */
export const toSpreadsheet = (
  spreadsheet: Selectable<SpreadsheetsTable>,
  sheets: ReadonlyArray<Selectable<SpreadsheetSheetsTable>>,
  rows: ReadonlyArray<Selectable<SpreadsheetRowsTable>>,
) => ({
  spreadsheetId: spreadsheet.id,
  title: spreadsheet.title,
  createdAt: spreadsheet.created_at.getTime(),
  sheets: sheets.map((s) => {
    const grid: Cell[][] = [];
    for (const r of rows) if (r.sheet_id === s.sheet_id) grid[r.row] = r.cells as Cell[];
    return {
      sheetId: s.sheet_id,
      title: s.title,
      index: s.index,
      values: trimValues(Array.from(grid, (x) => x ?? [])),
    };
  }),
});
