import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local Google Sheets API v4 (the wire format of spreadsheets.create, spreadsheets.values
// append and get, and Google's error envelope), for the workflow tests. It answers only the
// bearer token `token()` gives. Special names make it fail: a spreadsheet titled `quota` (429),
// `boom` (500); the spreadsheet id `forbidden` (403); unknown ids (404).

type Cell = string | number | boolean | null;
interface Sheet {
  title: string;
  rows: Cell[][];
}

export interface SheetsRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
};
const REASON: Record<number, string> = {
  400: 'badRequest',
  401: 'authError',
  403: 'forbidden',
  404: 'notFound',
  429: 'rateLimitExceeded',
  500: 'backendError',
};

const letters = (n: number) => {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26))
    s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
};

export async function startFakeSheets(token: () => string) {
  const books = new Map<string, { title: string; sheets: Sheet[] }>();
  const requests: SheetsRequest[] = [];
  let next = 1;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(payload));
      };
      const fail = (status: number, message: string) =>
        send(status, {
          error: {
            code: status,
            message,
            errors: [{ message, domain: 'global', reason: REASON[status] }],
            status: STATUS[status],
          },
        });
      if (req.headers.authorization !== `Bearer ${token()}`)
        return fail(
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/v4/spreadsheets') {
        const title = body?.properties?.title ?? 'Untitled spreadsheet';
        if (title === 'quota') return fail(429, "Quota exceeded for quota metric 'Write requests'");
        if (title === 'boom') return fail(500, 'Internal error encountered.');
        const id = `1FakeSheet${next++}xYz`;
        const titles: string[] = body?.sheets?.map(
          (s: { properties: { title: string } }) => s.properties.title,
        ) ?? ['Sheet1'];
        books.set(id, { title, sheets: titles.map((t) => ({ title: t, rows: [] })) });
        return send(200, {
          spreadsheetId: id,
          properties: { title, locale: 'en_US', autoRecalc: 'ON_CHANGE', timeZone: 'Etc/GMT' },
          sheets: titles.map((t, index) => ({
            properties: {
              sheetId: index === 0 ? 0 : 1000 + index,
              title: t,
              index,
              sheetType: 'GRID',
              gridProperties: { rowCount: 1000, columnCount: 26 },
            },
          })),
          spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${id}/edit`,
        });
      }
      const match = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+?)(:append)?$/.exec(url.pathname);
      if (!match) return fail(404, 'Requested entity was not found.');
      const id = decodeURIComponent(match[1]);
      const range = decodeURIComponent(match[2]);
      if (id === 'forbidden') return fail(403, 'The caller does not have permission');
      const book = books.get(id);
      if (!book) return fail(404, 'Requested entity was not found.');
      const name = range.includes('!')
        ? range.slice(0, range.lastIndexOf('!')).replace(/^'(.*)'$/, '$1')
        : null;
      const sheet = name === null ? book.sheets[0] : book.sheets.find((s) => s.title === name);
      if (!sheet) return fail(400, `Unable to parse range: ${range}`);
      const quoted = /^[A-Za-z0-9_]+$/.test(sheet.title) ? sheet.title : `'${sheet.title}'`;
      if (match[3]) {
        const option = url.searchParams.get('valueInputOption');
        if (option !== 'RAW' && option !== 'USER_ENTERED')
          return fail(400, "'valueInputOption' is required but not specified");
        const values: Cell[][] = body.values;
        const before = sheet.rows.length;
        const width = Math.max(...values.map((r) => r.length));
        sheet.rows.push(...values);
        return send(200, {
          spreadsheetId: id,
          ...(before ? { tableRange: `${quoted}!A1:${letters(width)}${before}` } : {}),
          updates: {
            spreadsheetId: id,
            updatedRange: `${quoted}!A${before + 1}:${letters(width)}${before + values.length}`,
            updatedRows: values.length,
            updatedColumns: width,
            updatedCells: values.reduce((n, r) => n + r.length, 0),
          },
        });
      }
      // FORMATTED_VALUE (the default) answers strings; UNFORMATTED_VALUE the values themselves.
      const raw = url.searchParams.get('valueRenderOption') === 'UNFORMATTED_VALUE';
      const values = sheet.rows.map((r) => r.map((c) => (raw || c === null ? c : String(c))));
      return send(200, {
        range: `${quoted}!A1:Z1000`,
        majorDimension: url.searchParams.get('majorDimension') ?? 'ROWS',
        ...(values.length ? { values } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    books,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
