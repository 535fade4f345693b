import { jsonb, sql } from '@platform/db';
import type { StageDb } from '../database/index.js';

// The embedded spreadsheets of the workflows' sheets blocks (domain/workflows/sheets-embedded.ts).

/** The app's spreadsheet, its row locked until the transaction ends: appends take turns. */
export function lockSpreadsheet(db: StageDb, appSid: string, id: string) {
  return db
    .selectFrom('spreadsheets')
    .select('id')
    .where('id', '=', id)
    .where('app_sid', '=', appSid)
    .forUpdate()
    .executeTakeFirst();
}

/** The sheet of that title (any case), or the first one when `title` is null. */
export function findSheet(db: StageDb, spreadsheetId: string, title: string | null) {
  const sheets = db
    .selectFrom('spreadsheet_sheets')
    .selectAll()
    .where('spreadsheet_id', '=', spreadsheetId);
  return (
    title === null
      ? sheets.orderBy('index').limit(1)
      : sheets.where(sql`lower(title)`, '=', title.toLowerCase())
  ).executeTakeFirst();
}

/** The rows of a sheet from `from` to `to` (to its end when null), in order. */
export function sheetRows(
  db: StageDb,
  spreadsheetId: string,
  sheetId: number,
  from: number,
  to: number | null,
) {
  let query = db
    .selectFrom('spreadsheet_rows')
    .select(['row', 'cells'])
    .where('spreadsheet_id', '=', spreadsheetId)
    .where('sheet_id', '=', sheetId)
    .where('row', '>=', from);
  if (to !== null) query = query.where('row', '<=', to);
  return query.orderBy('row').execute();
}

/** A new spreadsheet of an app with its sheets, in one transaction. */
export async function insertSpreadsheet(
  db: StageDb,
  spreadsheet: { id: string; app_sid: string; title: string },
  sheets: Array<{ spreadsheet_id: string; sheet_id: number; title: string; index: number }>,
) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('spreadsheets').values(spreadsheet).execute();
    await trx.insertInto('spreadsheet_sheets').values(sheets).execute();
  });
}

/** Rows written whole (their cells from column A), replacing those already there. */
export async function writeRows(
  db: StageDb,
  rows: Array<{ spreadsheet_id: string; sheet_id: number; row: number; cells: unknown[] }>,
) {
  await db
    .insertInto('spreadsheet_rows')
    .values(rows.map((row) => ({ ...row, cells: jsonb(row.cells) })))
    .onConflict((oc) =>
      oc
        .columns(['spreadsheet_id', 'sheet_id', 'row'])
        .doUpdateSet({ cells: (eb) => eb.ref('excluded.cells') }),
    )
    .execute();
}

/** An app's spreadsheet with all its sheets and rows; undefined when the app has no such one. */
export async function findSpreadsheet(db: StageDb, appSid: string, id: string) {
  const spreadsheet = await db
    .selectFrom('spreadsheets')
    .selectAll()
    .where('id', '=', id)
    .where('app_sid', '=', appSid)
    .executeTakeFirst();
  if (!spreadsheet) return undefined;
  const [sheets, rows] = await Promise.all([
    db
      .selectFrom('spreadsheet_sheets')
      .selectAll()
      .where('spreadsheet_id', '=', id)
      .orderBy('index')
      .execute(),
    db
      .selectFrom('spreadsheet_rows')
      .selectAll()
      .where('spreadsheet_id', '=', id)
      .orderBy('row')
      .execute(),
  ]);
  return { spreadsheet, sheets, rows };
}
