import { badRequest, newId, notFound } from '@platform/core';
import type { StageDb } from '../../database/index.js';
import {
  findSheet,
  insertSpreadsheet,
  lockSpreadsheet,
  sheetRows,
  writeRows,
} from '../../repositories/spreadsheets.js';
import { A1Error, formatA1, parseA1 } from './a1.js';
import { DEFAULT_TITLE, transpose, trimValues, type Cell, type SheetsProvider } from './sheets.js';

/** Where an embedded spreadsheet can be read (GET, the runs routes' neighbour). */
export const embeddedUrl = (appSid: string, id: string) =>
  `/api/v1/stage/apps/${appSid}/spreadsheets/${id}`;

const isEmpty = (cell: unknown) => cell === null || cell === undefined || cell === '';

/** The spreadsheet (of this app only) and the sheet a range names; 404 or 400 as Google says. */
async function locate(db: StageDb, appSid: string, spreadsheetId: string, text: string) {
  let range;
  try {
    range = parseA1(text);
  } catch (error) {
    if (error instanceof A1Error) throw badRequest(error.message);
    throw error;
  }
  if (!(await lockSpreadsheet(db, appSid, spreadsheetId)))
    throw notFound('Spreadsheet', spreadsheetId);
  const sheet = await findSheet(db, spreadsheetId, range.sheet);
  if (!sheet) throw badRequest(`Unable to parse range: ${text} (no sheet ${range.sheet})`);
  return { range, sheet };
}

/** The embedded store: spreadsheets in the sandbox's database, each owned by one app. */
export function embeddedSheets(db: StageDb, appSid: string): SheetsProvider {
  return {
    async create({ title, sheets }) {
      const titles = sheets.length ? sheets : ['Sheet1'];
      const seen = new Set<string>();
      for (const name of titles) {
        if (name.trim() === '' || name.length > 100)
          throw badRequest(`field sheets: a sheet title must be 1-100 characters`);
        if (seen.has(name.toLowerCase()))
          throw badRequest(`field sheets: a sheet with the name "${name}" already exists`);
        seen.add(name.toLowerCase());
      }
      const id = newId(24);
      const name = title || DEFAULT_TITLE;
      const rows = titles.map((t, index) => ({
        spreadsheet_id: id,
        sheet_id: index,
        title: t,
        index,
      }));
      await insertSpreadsheet(db, { id, app_sid: appSid, title: name }, rows);
      return {
        spreadsheetId: id,
        url: embeddedUrl(appSid, id),
        title: name,
        sheets: rows.map((r) => ({ sheetId: r.sheet_id, title: r.title, index: r.index })),
      };
    },

    append({ spreadsheetId, range: text, values }) {
      // One append at a time per spreadsheet (its row locked): none overwrites another.
      return db.transaction().execute(async (trx) => {
        const { range, sheet } = await locate(trx, appSid, spreadsheetId, text);
        const endCol = range.endCol ?? Number.MAX_SAFE_INTEGER;
        // As Google: the table is searched from the range's first row down to the sheet's end,
        // whatever the range's last row (`Sheet1!A1` appended to thrice fills A1, A2, A3).
        const existing = await sheetRows(trx, spreadsheetId, sheet.sheet_id, range.startRow, null);
        // The table: rows with a value in the range's columns; the append goes after it.
        let first = -1;
        let last = -1;
        let lastCol = range.startCol;
        for (const { row, cells } of existing) {
          const used = cells.slice(range.startCol, endCol + 1);
          if (used.every(isEmpty)) continue;
          if (first === -1) first = row;
          last = row;
          let end = used.length;
          while (isEmpty(used[end - 1])) end--;
          lastCol = Math.max(lastCol, range.startCol + end - 1);
        }
        const at = last === -1 ? range.startRow : last + 1;
        const width = Math.max(1, ...values.map((row) => row.length));
        const byRow = new Map(existing.map((r) => [r.row, r.cells]));
        const written = values.map((rowValues, i) => {
          const cells: unknown[] = [...(byRow.get(at + i) ?? [])];
          while (cells.length < range.startCol) cells.push(null);
          rowValues.forEach((cell, c) => (cells[range.startCol + c] = cell));
          return {
            spreadsheet_id: spreadsheetId,
            sheet_id: sheet.sheet_id,
            row: at + i,
            cells,
          };
        });
        await writeRows(trx, written);
        return {
          spreadsheetId,
          tableRange:
            first === -1 ? null : formatA1(sheet.title, first, range.startCol, last, lastCol),
          updatedRange: formatA1(
            sheet.title,
            at,
            range.startCol,
            at + values.length - 1,
            range.startCol + width - 1,
          ),
          updatedRows: values.length,
          updatedColumns: width,
          updatedCells: values.reduce((n, row) => n + row.length, 0),
        };
      });
    },

    async get({ spreadsheetId, range: text, majorDimension }) {
      const { range, sheet } = await locate(db, appSid, spreadsheetId, text);
      const rows = await sheetRows(db, spreadsheetId, sheet.sheet_id, range.startRow, range.endRow);
      const endCol = range.endCol ?? Number.MAX_SAFE_INTEGER;
      const grid: Cell[][] = [];
      for (const { row, cells } of rows)
        grid[row - range.startRow] = cells.slice(range.startCol, endCol + 1) as Cell[];
      const values = trimValues(Array.from(grid, (row) => row ?? []));
      const endRow = range.endRow ?? range.startRow + Math.max(values.length, 1) - 1;
      const width = Math.max(1, ...values.map((row) => row.length));
      return {
        spreadsheetId,
        range: formatA1(
          sheet.title,
          range.startRow,
          range.startCol,
          endRow,
          range.endCol ?? range.startCol + width - 1,
        ),
        majorDimension,
        values: majorDimension === 'COLUMNS' ? trimValues(transpose(values)) : values,
      };
    },
  };
}
