import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { listen } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';
import { seedSweep } from './sweep-seeds';
import {
  BAD_TEXT,
  HUGE,
  badBodies,
  nearlyRightBodies,
  type Document,
  speaksClientShape,
  clientError,
  type Operation,
} from './sweep-inputs';

// Every operation of the OpenAPI document, sent malformed path parameters, queries and bodies:
// whatever the input, the answer is an envelope and never a 5xx.

const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'libs', 'client', 'openapi.json'), 'utf8'),
) as Document;
// Deletes last: until then every path parameter names a record that exists.
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  )
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

let gw: GatewayUnderTest;
let base: string;
beforeAll(async () => {
  const features = Object.fromEntries(
    SERVICES.map((s) => [`FEATURE_${s.name.toUpperCase()}`, 'true']),
  );
  // Every optional part configured, so that its routes are reached too.
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  gw = await gatewayUnderTest({
    ...features,
    LEDGER_SIGNING_KEY: signingKey.toString(),
    GIT_WEBHOOK_SECRET: 'sweep',
    // Live streams (logs, the inbox) end after this (their end event): the sweep reads every GET
    // to its end.
    STAGE_BACKEND_LOG_FOLLOW_MAX_MS: '100',
    COMMUNICATION_INBOX_STREAM_MAX_MS: '100',
  });
  base = await listen(gw.app);
  ids = await seedSweep(gw, operations);
});

let ids: ReadonlyMap<string, string>;

/** Required query parameters, so that a GET reaches its handler. */
const REQUIRED_QUERY: Record<string, string> = { path: '/app/main.ts' };
const requiredQuery = (op: Operation) => {
  const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  return required.length === 0
    ? ''
    : `?${required.map((p) => `${p.name}=${encodeURIComponent(REQUIRED_QUERY[p.name] ?? 'sweep')}`).join('&')}`;
};

/** Operations whose success is not JSON (a file's content): only their errors are envelopes. */
const answersRaw = (op: Operation) =>
  Object.keys(op.responses?.['200']?.content ?? { 'application/json': 1 }).every(
    (type) => type !== 'application/json',
  );

const sampleId = (name: string, path = '') =>
  ids.get(`${path} ${name}`) ||
  ((name === 'id' || name === 'idOrName') && ids.get(path)) ||
  ids.get(name) ||
  { name: 'pulse', dependsOn: 'other', path: 'app/main.ts' }[name] ||
  'sweep';
afterAll(() => gw.close());

function fill(path: string, value: (name: string) => string) {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
}

async function send(method: string, url: string, body?: string, contentType?: string) {
  const res = await gw.app.inject({
    method: method as 'GET',
    url,
    ...(body === undefined
      ? {}
      : { payload: body, headers: { 'content-type': contentType ?? 'application/json' } }),
  });
  return { status: res.statusCode, body: res.body, url, method };
}

function expectEnvelope(res: Awaited<ReturnType<typeof send>>, op?: Operation) {
  const where = `${res.method} ${res.url.slice(0, 200)} -> ${res.status} ${res.body.slice(0, 300)}`;
  expect({ where, status: res.status < 500 }).toEqual({ where, status: true });
  let json: { success?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new Error(`Not JSON: ${where}`);
  }
  // A path past the length limit or not validly percent-encoded is refused before any route is
  // found: the platform's envelope, whatever the route would have spoken.
  const beforeRouting =
    res.status === 414 || json.error?.message === 'The URL is not validly percent-encoded';
  if (op && speaksClientShape(op) && !beforeRouting) {
    if (res.status < 300) return;
    expect({ where, body: json }).toEqual({ where, body: clientError(op) });
    return;
  }
  if (json.success === true) return;
  expect({ where, envelope: json }).toEqual({
    where,
    envelope: {
      success: false,
      error: { code: expect.any(String), message: expect.any(String) },
    },
  });
}

describe('every operation of the OpenAPI document', () => {
  it('reaches the handlers: every record a GET names exists', async () => {
    const named = operations.filter(
      // (A sync job's id is not seeded; connecting a provider needs a signed-in person.)
      (o) =>
        o.method === 'GET' &&
        o.path.includes('{') &&
        !o.path.includes('/sync/jobs/') &&
        !o.path.endsWith('/connect'),
    );
    expect(named.length).toBeGreaterThan(15);
    for (const { path, op } of named) {
      const res = await send('GET', fill(path, (name) => sampleId(name, path)) + requiredQuery(op));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it('is documented with at least one operation per enabled service', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const service of SERVICES)
      expect(operations.some((o) => o.path.startsWith(service.prefix))).toBe(true);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s answers envelopes, never a 5xx, to malformed input',
    async (_name, { path, method, op }) => {
      const params = op.parameters ?? [];
      const url = fill(path, (name) => sampleId(name, path));
      const answers: Array<Awaited<ReturnType<typeof send>>> = [];

      // Path parameters: each one replaced by each bad text.
      for (const p of params.filter((x) => x.in === 'path'))
        for (const text of BAD_TEXT.filter((t) => t !== ''))
          answers.push(
            await send(
              method,
              fill(path, (name) => (name === p.name ? text : sampleId(name))),
            ),
          );
      // Query parameters: each one given each bad text, then repeated, then unknown ones.
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const text of BAD_TEXT)
          answers.push(await send(method, `${url}?${p.name}=${encodeURIComponent(text)}`));
        answers.push(await send(method, `${url}?${p.name}=1&${p.name}=2`));
      }
      answers.push(await send(method, `${url}?unknown=1&id=x&description=y&tags=z`));
      answers.push(await send(method, `${url}?limit=-5&offset=99999999999999999999`));
      answers.push(await send(method, `${url}?%zz=%zz&limit=%ED%A0%80`));
      if (params.some((p) => p.in === 'path'))
        answers.push(await send(method, `${url}%ED%A0%80%zz`));
      // Bodies.
      if (op.requestBody || ['POST', 'PUT', 'PATCH'].includes(method)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        for (const [body, type] of badBodies(schema))
          answers.push(await send(method, url, body, type));
        for (const body of nearlyRightBodies(schema)) answers.push(await send(method, url, body));
        answers.push(await send(method, url, JSON.stringify({ big: HUGE.repeat(12) })));
      }

      for (const res of answers) if (!(answersRaw(op) && res.status < 300)) expectEnvelope(res, op);
    },
  );

  it('still answers health afterwards', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('ok');
  });
});

describe('limits of the HTTP layer, over a real socket', () => {
  it('answers an over-long path parameter with a 414 envelope', async () => {
    const res = await request(`${base}/api/v1/catalog/services/${'a'.repeat(10_000)}`);
    expect(res.statusCode).toBe(414);
    expect(await res.body.json()).toEqual({
      success: false,
      error: { code: 'URI_TOO_LONG', message: 'A path parameter is longer than 1000 characters' },
    });
  });

  it('answers oversized headers with a 431 envelope', async () => {
    const res = await request(`${base}/api/v1/pulse/events`, {
      headers: { 'x-big': 'a'.repeat(64 * 1024) },
    });
    expect(res.statusCode).toBe(431);
    expect(await res.body.json()).toEqual({
      success: false,
      error: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large' },
    });
  });

  it('answers a badly percent-encoded URL with a 400 envelope', async () => {
    const res = await request(`${base}/api/v1/catalog/services/%E0%A4%A`);
    expect(res.statusCode).toBe(400);
    expect((await res.body.json()) as unknown).toMatchObject({
      success: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('answers a huge offset with a 400 naming the bound', async () => {
    for (const path of ['catalog/systems', 'catalog/owners', 'pulse/events']) {
      const res = await request(`${base}/api/v1/${path}?offset=99999999999999999999`);
      expect(res.statusCode).toBe(400);
      expect(await res.body.json()).toEqual({
        success: false,
        error: { code: 'BAD_REQUEST', message: 'offset must be at most 2147483647' },
      });
    }
  });
});
