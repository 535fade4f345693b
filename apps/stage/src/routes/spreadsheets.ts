import { notFound, ok, responses, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import type { StageRoutes } from '../domain/state.js';
import { findApp } from '../repositories/apps.js';
import { findSpreadsheet } from '../repositories/spreadsheets.js';
import { SpreadsheetParams, SpreadsheetSchema, toSpreadsheet } from '../schemas/spreadsheets.js';

/**
 * GET /api/v1/stage/apps/:sid/spreadsheets/:spreadsheetId: an embedded spreadsheet the app's
 * workflows wrote (domain/workflows/sheets-embedded.ts).
 */
export const spreadsheetRoutes: StageRoutes = async (app, { db }) => {
  // Like the runs: the app's owners and admins.
  const SHEETS: Access = { resource: 'stage.spreadsheet', action: 'read', rule: 'owner', owner: appOwner(db) }; // prettier-ignore
  app.get(
    '/apps/:sid/spreadsheets/:spreadsheetId',
    {
      config: { access: SHEETS },
      schema: {
        operationId: 'getSpreadsheet',
        summary: "One of an app's embedded spreadsheets",
        description: 'Every sheet with its values (trailing empty rows and cells dropped).',
        params: SpreadsheetParams,
        response: responses({ 200: SpreadsheetSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const id = request.params.spreadsheetId;
      const read = await findSpreadsheet(db, found.sid, id);
      if (!read) throw notFound('Spreadsheet', id);
      return ok(toSpreadsheet(read.spreadsheet, read.sheets, read.rows));
    },
  );
};
