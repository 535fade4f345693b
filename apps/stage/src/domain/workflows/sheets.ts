// The spreadsheet blocks' provider: the embedded store (sheets-embedded.ts) or Google Sheets
// (sheets-google.ts). Both answer the same shapes.
import { badRequest } from '@platform/core';
import { A1Error, parseA1 } from './a1.js';

export type Cell = string | number | boolean | null;

export interface SpreadsheetInfo {
  spreadsheetId: string;
  url: string;
  title: string;
  sheets: Array<{ sheetId: number; title: string; index: number }>;
}

export interface Appended {
  spreadsheetId: string;
  /** The table found before the append; null on an empty sheet. */
  tableRange: string | null;
  updatedRange: string;
  updatedRows: number;
  updatedColumns: number;
  updatedCells: number;
}

export interface Values {
  spreadsheetId: string;
  range: string;
  majorDimension: 'ROWS' | 'COLUMNS';
  /** Trailing empty rows and cells dropped; [] for an empty range. */
  values: Cell[][];
}

export interface SheetsProvider {
  create(input: { title: string; sheets: string[] }): Promise<SpreadsheetInfo>;
  append(input: {
    spreadsheetId: string;
    range: string;
    values: Cell[][];
    valueInputOption: 'RAW' | 'USER_ENTERED';
  }): Promise<Appended>;
  get(input: {
    spreadsheetId: string;
    range: string;
    majorDimension: 'ROWS' | 'COLUMNS';
  }): Promise<Values>;
}

export const DEFAULT_TITLE = 'Untitled spreadsheet';
export const MAX_APPEND_ROWS = 10_000;
export const MAX_APPEND_COLUMNS = 1_000;

const empty = (cell: Cell | undefined) => cell === null || cell === undefined || cell === '';

/** Rows without their trailing empty cells, and without trailing empty rows. */
export function trimValues(rows: Cell[][]): Cell[][] {
  const trimmed = rows.map((row) => {
    let end = row.length;
    while (end > 0 && empty(row[end - 1])) end--;
    return row.slice(0, end).map((cell) => (cell === undefined ? null : cell));
  });
  while (trimmed.length > 0 && trimmed[trimmed.length - 1].length === 0) trimmed.pop();
  return trimmed;
}

/** Rows to columns (for majorDimension COLUMNS). */
export function transpose(rows: Cell[][]): Cell[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return Array.from({ length: width }, (_, c) => rows.map((row) => row[c] ?? null));
}

/** Google's spreadsheet ids: letters, digits, `_` and `-` (nothing that could change a URL path). */
export const SPREADSHEET_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * 400 unless `spreadsheetId` is an id and `range` is A1 notation, checked before any call: they
 * go into a URL path, where `..` would reach another of Google's URLs with the caller's token.
 */
export function checkTarget(spreadsheetId: string, range: string) {
  if (!SPREADSHEET_ID.test(spreadsheetId))
    throw badRequest(
      `field spreadsheetId ${JSON.stringify(spreadsheetId.slice(0, 100))} must be 1-200 letters, digits, _ or -`,
    );
  try {
    if (/^\.{1,2}$/.test(range)) throw new A1Error(range);
    parseA1(range);
  } catch (error) {
    if (error instanceof A1Error) throw badRequest(`field range: ${error.message}`);
    throw error;
  }
}
