// A1 notation, as the Google Sheets API reads it: `Sheet1!A1:C3`, `'My Sheet'!A:D`, `Sheet1`,
// `A1:B2` (the first sheet), `Sheet1!2:5` (whole rows), `Sheet1!A2:C` (from row 2 down).

export const MAX_ROWS = 10_000_000;
export const MAX_COLUMNS = 18_278; // ZZZ

export interface A1Range {
  /** The sheet's title, or null for the first sheet. */
  sheet: string | null;
  /** From 0; the end inclusive, null when open (the sheet's end). */
  startRow: number;
  startCol: number;
  endRow: number | null;
  endCol: number | null;
}

export class A1Error extends Error {
  constructor(readonly range: string) {
    super(`Unable to parse range: ${range}`);
    this.name = 'A1Error';
  }
}

const PART = /^([A-Za-z]{0,3})(\d{0,8})$/;

/** Column letters to an index from 0 (A = 0, Z = 25, AA = 26). */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const c of letters.toUpperCase()) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

/** An index from 0 to column letters. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function cellPart(text: string) {
  const match = PART.exec(text);
  if (!match || text === '') return null;
  const col = match[1] ? columnIndex(match[1]) : null;
  const row = match[2] ? Number(match[2]) - 1 : null;
  if (row !== null && (row < 0 || row >= MAX_ROWS)) return null;
  return { col, row };
}

/** The cells part (`A1:C3`, `A:D`, `2:5`, `B2`), or null when it is not one. */
function parseCells(text: string): Omit<A1Range, 'sheet'> | null {
  const [first, second, ...rest] = text.split(':');
  if (rest.length) return null;
  const start = cellPart(first);
  if (!start) return null;
  if (second === undefined) {
    // A single cell needs both its column and its row.
    if (start.col === null || start.row === null) return null;
    return { startRow: start.row, startCol: start.col, endRow: start.row, endCol: start.col };
  }
  const end = cellPart(second);
  if (!end) return null;
  // Whole columns (A:D) or whole rows (2:5) must say the same kind on both sides.
  if ((start.col === null) !== (end.col === null) && start.row === null) return null;
  const range = {
    startRow: start.row ?? 0,
    startCol: start.col ?? 0,
    endRow: end.row,
    endCol: end.col,
  };
  if (range.endRow !== null && range.endRow < range.startRow) return null;
  if (range.endCol !== null && range.endCol < range.startCol) return null;
  return range;
}

function parseSheet(text: string, whole: string): string {
  if (text.startsWith("'")) {
    if (text.length < 3 || !text.endsWith("'")) throw new A1Error(whole);
    const inner = text.slice(1, -1);
    if (inner.replace(/''/g, '').includes("'")) throw new A1Error(whole);
    return inner.replace(/''/g, "'");
  }
  if (text === '' || /['!]/.test(text)) throw new A1Error(whole);
  return text;
}

/** Parses A1 notation; A1Error (`Unable to parse range: ...`, as Google says) otherwise. */
export function parseA1(text: string): A1Range {
  const value = text.trim();
  if (value === '' || value.length > 300) throw new A1Error(text);
  const bang = value.lastIndexOf('!');
  if (bang === -1) {
    const cells = parseCells(value);
    if (cells) return { sheet: null, ...cells };
    return { sheet: parseSheet(value, text), startRow: 0, startCol: 0, endRow: null, endCol: null };
  }
  const sheet = parseSheet(value.slice(0, bang), text);
  const cells = parseCells(value.slice(bang + 1));
  if (!cells) throw new A1Error(text);
  return { sheet, ...cells };
}

/** A sheet title as A1 notation writes it: quoted unless letters, digits and `_` only. */
export const quoteSheet = (title: string) =>
  /^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`;

/** `Sheet1!A1:C3` for a sheet and bounded cells (0-based, inclusive). */
export const formatA1 = (
  sheet: string,
  startRow: number,
  startCol: number,
  endRow: number,
  endCol: number,
) =>
  `${quoteSheet(sheet)}!${columnLetters(startCol)}${startRow + 1}:${columnLetters(endCol)}${endRow + 1}`;
