import { ApiError, badGateway, badRequest } from '@platform/core';
import type { WorkflowConfig } from '../../config/workflows.js';
import { checkTarget, trimValues, type Cell, type SheetsProvider } from './sheets.js';

/** Scopes of which one lets a token use the Sheets API (spreadsheets, or Drive's). */
export const SPREADSHEET_SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets',
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.file',
];

interface GoogleError {
  error?: { code?: number; message?: string; status?: string };
}

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}...` : text);

/** A Google error envelope as a platform error; the caller adds which step it was. */
function googleError(status: number, body: GoogleError, what: string, user: string): ApiError {
  const reason = `${status}${body.error?.status ? ` ${body.error.status}` : ''}`;
  const message = short(String(body.error?.message ?? 'no message'));
  switch (status) {
    case 400:
      return badRequest(`Google Sheets refused ${what} (${reason}): ${message}`);
    case 401:
      return new ApiError(
        'FORBIDDEN',
        `Google Sheets refused ${user}'s token (${reason}): ${message}`,
      );
    case 403:
      return new ApiError(
        'FORBIDDEN',
        `Google Sheets refused ${what} for ${user} (${reason}): ${message}`,
      );
    case 404:
      return new ApiError('NOT_FOUND', `Google Sheets: ${what}: not found (${reason}): ${message}`);
    case 429:
      return new ApiError('RATE_LIMITED', `Google Sheets quota exhausted (${reason}): ${message}`);
    default:
      return badGateway(`Google Sheets failed on ${what} (${reason}): ${message}`);
  }
}

/** The Sheets API v4 at `config.googleSheetsUrl`, acting for `user` with `token()`'s access token. */
export function googleSheets(
  config: WorkflowConfig,
  user: string,
  token: () => Promise<string>,
): SheetsProvider {
  const base = config.googleSheetsUrl.replace(/\/+$/, '');

  async function call<T>(method: 'GET' | 'POST', path: string, what: string, body?: unknown) {
    const accessToken = await token();
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(config.googleTimeoutMs),
      });
    } catch (error) {
      const cause = error as Error;
      throw badGateway(
        cause.name === 'TimeoutError'
          ? `Google Sheets did not answer ${what} within ${config.googleTimeoutMs} ms (STAGE_GOOGLE_TIMEOUT_MS)`
          : `Google Sheets cannot be reached (${new URL(base).host}): ${cause.message}`,
      );
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw badGateway(
        `Google Sheets answered ${what} with ${res.status} and a body that is not JSON`,
      );
    }
    if (!res.ok) throw googleError(res.status, parsed as GoogleError, what, user);
    return parsed as T;
  }

  const values = (id: string, range: string) =>
    `/v4/spreadsheets/${encodeURIComponent(id)}/values/${encodeURIComponent(range)}`;

  return {
    async create({ title, sheets }) {
      const made = await call<{
        spreadsheetId: string;
        spreadsheetUrl: string;
        properties?: { title?: string };
        sheets?: Array<{ properties?: { sheetId?: number; title?: string; index?: number } }>;
      }>('POST', '/v4/spreadsheets', 'creating a spreadsheet', {
        properties: title ? { title } : {},
        ...(sheets.length ? { sheets: sheets.map((t) => ({ properties: { title: t } })) } : {}),
      });
      if (typeof made.spreadsheetId !== 'string')
        throw badGateway('Google Sheets answered the creation without a spreadsheetId');
      return {
        spreadsheetId: made.spreadsheetId,
        url: made.spreadsheetUrl,
        title: made.properties?.title ?? title,
        sheets: (made.sheets ?? []).map((s, i) => ({
          sheetId: s.properties?.sheetId ?? 0,
          title: s.properties?.title ?? '',
          index: s.properties?.index ?? i,
        })),
      };
    },

    async append({ spreadsheetId, range, values: rows, valueInputOption }) {
      checkTarget(spreadsheetId, range);
      const query = new URLSearchParams({ valueInputOption, insertDataOption: 'OVERWRITE' });
      const res = await call<{
        spreadsheetId: string;
        tableRange?: string;
        updates?: {
          updatedRange?: string;
          updatedRows?: number;
          updatedColumns?: number;
          updatedCells?: number;
        };
      }>(
        'POST',
        `${values(spreadsheetId, range)}:append?${query}`,
        `appending to spreadsheet ${spreadsheetId} (${range})`,
        { range, majorDimension: 'ROWS', values: rows },
      );
      return {
        spreadsheetId: res.spreadsheetId ?? spreadsheetId,
        tableRange: res.tableRange || null,
        updatedRange: res.updates?.updatedRange ?? '',
        updatedRows: res.updates?.updatedRows ?? 0,
        updatedColumns: res.updates?.updatedColumns ?? 0,
        updatedCells: res.updates?.updatedCells ?? 0,
      };
    },

    async get({ spreadsheetId, range, majorDimension }) {
      checkTarget(spreadsheetId, range);
      // UNFORMATTED_VALUE: numbers and booleans as such, as the embedded store keeps them.
      const query = new URLSearchParams({ majorDimension, valueRenderOption: 'UNFORMATTED_VALUE' });
      const res = await call<{ range?: string; majorDimension?: string; values?: Cell[][] }>(
        'GET',
        `${values(spreadsheetId, range)}?${query}`,
        `reading spreadsheet ${spreadsheetId} (${range})`,
      );
      return {
        spreadsheetId,
        range: res.range ?? range,
        majorDimension,
        values: trimValues(res.values ?? []),
      };
    },
  };
}
