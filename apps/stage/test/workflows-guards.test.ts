import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, delegatedToken } from '@platform/core';
import { opsConfig } from '../src/config/ops';
import { workflowConfig } from '../src/config/workflows';
import { Outbound } from '../src/domain/backends/outbound';
import { httpRequest } from '../src/domain/workflows/blocks-more';
import { parseWorkflow } from '../src/domain/workflows/definition';
import { evaluate } from '../src/domain/workflows/expressions';
import { RenderBudget } from '../src/domain/workflows/limits';
import { googleSheets } from '../src/domain/workflows/sheets-google';
import { render } from '../src/domain/workflows/template';

// Guards without a running service: reserved step names and templates in keys (definition),
// the rendering budget, spreadsheet ids and ranges checked before any Google call, and the
// delegated-token error mapping shared with the git service (libs/core delegated.ts).

const file = (steps: unknown[]) => JSON.stringify({ version: 1, workflows: { w: { steps } } });
const problem = (steps: unknown[]) => {
  try {
    parseWorkflow('app', file(steps), 'w');
    return null;
  } catch (error) {
    return (error as ApiError).message;
  }
};

describe('definitions', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses the step name %s', (as) => {
    expect(problem([{ respond: 1, as }])).toBe(
      `Workflow w, steps[0] (respond): field as: ${as} is reserved (__proto__, constructor, prototype)`,
    );
  });

  it('refuses templates in object keys, naming the field', () => {
    expect(problem([{ respond: { ok: [{ '{{ input.k }}': 1 }] } }])).toBe(
      'Workflow w, steps[0] (respond): field payload.ok[0].{{ input.k }}: templates are not allowed in object keys, only in values',
    );
    expect(problem([{ 'pulse.track': { name: 'x', properties: { 'a{{b': 1 } } }])).toBe(
      'Workflow w, steps[0] (pulse.track): field properties.a{{b: templates are not allowed in object keys, only in values',
    );
    expect(problem([{ respond: { plain: '{{ input.k }}' } }])).toBeNull();
  });
});

it('stops rendering as soon as the budget is spent, before the text is made', () => {
  const scope = { config: {}, auth: {}, app: {}, steps: {}, input: { a: 'x'.repeat(1000) } };
  const budget = new RenderBudget('the result', 5120);
  expect(() => render(Array(100).fill('{{ input.a }} and {{ input.a }}'), scope, budget)).toThrow(
    'the result is over 5120 characters of JSON, at most 5120 (5 KiB)',
  );
  expect(budget.left).toBeGreaterThan(-1100);
});

describe('Google Sheets targets', () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  let tokens = 0;
  let sheets: ReturnType<typeof googleSheets>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sheets = googleSheets(workflowConfig({ STAGE_GOOGLE_SHEETS_URL: url }), 'ada@x.com', () => {
      tokens++;
      return Promise.resolve('t');
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['..', 'A1', 'field spreadsheetId ".." must be 1-200 letters, digits, _ or -'],
    ['../../drive/v3/files', 'A1', 'field spreadsheetId'],
    ['abc', '..', 'field range: Unable to parse range: ..'],
    ['abc', 'Sheet1!A1:B2:C3', 'field range: Unable to parse range: Sheet1!A1:B2:C3'],
  ])('refuses spreadsheetId %j range %j before any call', async (spreadsheetId, range, message) => {
    const read = sheets.get({ spreadsheetId, range, majorDimension: 'ROWS' });
    await expect(read).rejects.toThrow(message);
    const append = sheets.append({ spreadsheetId, range, values: [[1]], valueInputOption: 'RAW' });
    await expect(append).rejects.toThrow(message);
    expect([tokens, requests]).toEqual([0, []]);
  });

  it('calls Google for a good id and range', async () => {
    await sheets.get({ spreadsheetId: 'a_B-1', range: "'My Sheet'!A1", majorDimension: 'ROWS' });
    expect([tokens, requests.length]).toEqual([1, 1]);
  });
});

describe('delegatedToken (libs/core, shared with git)', () => {
  const failing = (status: number, message: string) => () =>
    Promise.reject(Object.assign(new Error(message), { name: 'PlatformError', status, code: 'X' }));
  const ask = (getToken: () => Promise<{ accessToken: string }>, unauthorized?: 'FORBIDDEN') =>
    delegatedToken({
      provider: 'google',
      user: 'ada@x.com',
      getToken,
      unknownProvider: (m) => `no such provider (${m})`,
      what: 'Google token',
      unauthorized,
    }).catch((error: ApiError) => [error.code, error.message]);

  it('answers the token, and maps every failure', async () => {
    expect(await ask(() => Promise.resolve({ accessToken: 'tok' }))).toBe('tok');
    expect(await ask(failing(404, 'ada@x.com has not connected google'))).toEqual([
      'FORBIDDEN',
      'ada@x.com has not connected google: sign in as ada@x.com and open /api/v1/passport/providers/google/connect to connect it',
    ]);
    expect(await ask(failing(404, 'Provider not found'))).toEqual([
      'BAD_REQUEST',
      'no such provider (Provider not found)',
    ]);
    expect((await ask(failing(409, 'expired')))[0]).toBe('FORBIDDEN');
    const unset = () =>
      Promise.reject(
        Object.assign(new Error('Provider google: the variable OAUTH_GOOGLE is not set'), {
          name: 'PlatformError',
          status: 409,
          code: 'NOT_CONFIGURED',
        }),
      );
    expect(await ask(unset)).toEqual([
      'NOT_CONFIGURED',
      'The identity service: Provider google: the variable OAUTH_GOOGLE is not set',
    ]);
    expect(await ask(failing(401, 'bad'))).toEqual(['UNAUTHORIZED', 'bad']);
    expect((await ask(failing(401, 'bad'), 'FORBIDDEN'))[0]).toBe('FORBIDDEN');
    expect((await ask(failing(500, 'down')))[0]).toBe('BAD_GATEWAY');
    expect(await ask(() => Promise.reject(new Error('ECONNREFUSED')))).toEqual([
      'SERVICE_UNAVAILABLE',
      "The identity service cannot be reached for ada@x.com's Google token: ECONNREFUSED",
    ]);
  });
});

describe('expressions (JSONata)', () => {
  it('reach no JavaScript: process, require, constructors and prototypes are nothing', async () => {
    const scope = { input: { n: 1 } };
    for (const source of ['process', 'require', '$process', 'input.constructor', 'input.__proto__', '"a".constructor', '$string.constructor', '$$.constructor.constructor'])
      expect(await evaluate(source, scope, 'x')).toBeNull(); // prettier-ignore
    await expect(evaluate('$require("fs")', scope, 'x')).rejects.toThrow(/failed: .*(T1006|not a function|undefined)/i); // prettier-ignore
  });

  it('stop a catastrophic expression at the time bound, $eval included', async () => {
    const started = Date.now();
    const nested = '$map([1..100000], function($x){ $map([1..100000], function($y){$y}) })';
    await expect(evaluate(nested, {}, 'x')).rejects.toThrow(/failed: .*D1012/);
    await expect(evaluate(`$eval(${JSON.stringify(nested)})`, {}, 'x')).rejects.toThrow(/failed: .*(D1012|D3121)/); // prettier-ignore
    // A range larger than the sequence bound is never made.
    await expect(evaluate('[1..10000000]', {}, 'x')).rejects.toThrow(/failed: .*D2015/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('http.request', () => {
  const server = createServer((_req, res) => res.end('inside'));
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses a loopback target without STAGE_BACKEND_FETCH_ALLOW, and reaches it with it', async () => {
    const outbounds: Outbound[] = [];
    const env = (allow: string) => {
      outbounds.push(new Outbound(opsConfig({ STAGE_BACKEND_FETCH_ALLOW: allow })));
      return { engine: { outbound: outbounds.at(-1) } } as never;
    };
    try {
      const refused = await httpRequest(env(''), { url }).catch((error: ApiError) => error);
      expect(refused).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/127\.0\.0\.1 is a loopback, private/) }); // prettier-ignore
      const allowed = await httpRequest(env(new URL(url).host), { url });
      expect(allowed).toMatchObject({ status: 200, body: 'inside' });
    } finally {
      await Promise.all(outbounds.map((outbound) => outbound.close()));
    }
  });
});
