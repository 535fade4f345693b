import { useService } from '@platform/testing';
import { backendsUnderTest, push } from './backends-helpers';

// CPU limits are backends-limits.test.ts's subject: here a request has 2 s of CPU, so that an
// 8 MB header built on a busy runner is refused for its size (502), not cut off for time (504).
const b = useService(
  () =>
    backendsUnderTest({ STAGE_BACKEND_MAX_BODY_BYTES: '2048', STAGE_BACKEND_TIMEOUT_MS: '2000' }),
  { scope: 'all' },
);

const HONO = `
import { Hono } from 'hono';
import { greet } from '../lib/greet';
const app = new Hono();
app.get('/', (c) => c.text('root'));
app.get('/users/:id', (c) =>
  c.json({ id: c.req.param('id'), q: c.req.query('q'), tags: c.req.queries('tag'), ua: c.req.header('user-agent') }));
app.post('/users', async (c) => {
  const body = await c.req.json();
  c.header('x-made', 'yes');
  return c.json({ made: greet(body.name) }, 201);
});
app.get('/env', (c) => c.json({ auth: c.env.auth, app: c.env.app, url: c.req.url,
  headers: Object.fromEntries(c.req.raw.headers) }));
app.notFound((c) => c.json({ missing: c.req.path }, 404));
export default app;
`;

describe('a Hono app', () => {
  let sid: string;
  beforeAll(async () => {
    ({ sid } = await b.publish({
      '/app/api/index.ts': HONO,
      '/app/lib/greet.ts': 'export const greet = (n: string): string => `hello ${n}`;',
      '/app/config.json': '{}',
    }));
  });

  it('routes with params, query, headers, JSON bodies and statuses, the prefix removed', async () => {
    expect((await b.call(sid, '')).body).toBe('root');
    expect((await b.call(sid, '/')).body).toBe('root');
    const got = await b.call(sid, '/users/42?q=x%20y&tag=a&tag=b', { headers: { 'user-agent': 'jest' } }); // prettier-ignore
    expect(got.status).toBe(200);
    expect(got.json()).toEqual({ id: '42', q: 'x y', tags: ['a', 'b'], ua: 'jest' });
    const made = await b.call(sid, '/users', { method: 'POST', body: '{"name":"ada"}' });
    expect(made.status).toBe(201);
    expect(made.headers['x-made']).toBe('yes');
    expect(made.json()).toEqual({ made: 'hello ada' });
    expect((await b.call(sid, '/nope')).status).toBe(404);
    expect((await b.call(sid, '/nope')).json()).toEqual({ missing: '/nope' });
  });

  it('tells the handler who calls, and forwards no cookie nor platform credential', async () => {
    const res = await b.call(sid, '/env', {
      headers: { cookie: 'platform_session=secret', 'x-api-key': 'k', 'x-stage-user': 'eve@evil', 'x-custom': '1' }, // prettier-ignore
    });
    const body = res.json();
    expect(body.auth).toEqual({ kind: 'user', email: 'ada@example.com', name: 'Ada' });
    expect(body.app).toMatchObject({ sid, basePath: `/stage/${sid}/api`, config: {} });
    expect(body.url).toBe('http://localhost/env');
    expect(body.headers).toMatchObject({ 'x-custom': '1', 'x-stage-app': sid, 'x-stage-user': 'ada@example.com' }); // prettier-ignore
    for (const h of ['cookie', 'x-api-key', 'x-platform-identity']) expect(body.headers[h]).toBeUndefined(); // prettier-ignore
    // Answers run sandboxed on the platform's origin, and set no cookie there.
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('needs a caller, like the app pages', async () => {
    const res = await b.call(sid, '/users', { method: 'POST', body: '{}', identity: null });
    expect(res.status).toBe(401);
  });

  it('refuses a body over STAGE_BACKEND_MAX_BODY_BYTES with 413', async () => {
    const res = await b.call(sid, '/users', { method: 'POST', body: `{"name":"${'x'.repeat(3000)}"}` }); // prettier-ignore
    expect(res.status).toBe(413);
    expect(res.json().success).toBe(false);
  });
});

describe('a plain fetch handler', () => {
  it('gets the raw body, method and query, and its Response goes back as is', async () => {
    const { sid } = await b.publish({
      '/app/api/index.js': `
import { json, html, redirect, sha256, id, uuid } from '@stage/utils';
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/html') return html('<p>hi</p>');
    if (url.pathname === '/go') return redirect('/elsewhere', 307);
    if (url.pathname === '/utils') return json({ hash: sha256('abc'), id: id('ord'), uuid: uuid() });
    if (url.pathname === '/bytes') return new Response(new Uint8Array([0, 255, 7]), { status: 202, headers: { 'set-cookie': 'a=b', 'x-bin': '1' } });
    return new Response(request.method + ' ' + url.pathname + url.search + ' ' + (await request.text()), { status: 418 });
  },
};`,
    });
    const echo = await b.call(sid, '/a/b?c=1&d', { method: 'PUT', body: 'raw text', headers: { 'content-type': 'text/plain' } }); // prettier-ignore
    expect(echo.status).toBe(418);
    expect(echo.body).toBe('PUT /a/b?c=1&d raw text');
    const page = await b.call(sid, '/html');
    // Status and body beside the type: a failure says what came instead (CI saw JSON once).
    expect({ status: page.status, type: page.headers['content-type'], body: page.body }).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<p>hi</p>',
    });
    const go = await b.call(sid, '/go');
    expect([go.status, go.headers.location]).toEqual([307, '/elsewhere']);
    const utils = (await b.call(sid, '/utils')).json();
    expect(utils.hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(utils.id).toMatch(/^ord_[0-9a-f]{32}$/);
    expect(utils.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const bin = await b.call(sid, '/bytes');
    expect(bin.status).toBe(202);
    expect([...bin.raw]).toEqual([0, 255, 7]);
    expect(bin.headers['x-bin']).toBe('1');
    expect(bin.headers['set-cookie']).toBeUndefined();
  });
});

describe('errors in the envelope', () => {
  const failure = async (files: Record<string, string> | string, path = '/') => {
    const sid = typeof files === 'string' ? files : (await b.publish(files)).sid;
    const res = await b.call(sid, path);
    return { status: res.status, kind: res.headers['x-stage-backend-error'], ...res.json() };
  };

  it('names what is missing, what does not build (file:line) and what the handler did wrong', async () => {
    expect(await failure('nosuchapp')).toMatchObject({ status: 404, error: { code: 'NOT_FOUND', message: 'App not found: nosuchapp' } }); // prettier-ignore
    const none = await failure({ '/app/main.ts': '' });
    expect(none).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    expect(none.error.message).toContain('/app/api/index.ts');
    const broken = await failure({ '/app/api/index.ts': 'export default {\n  fetch( {' });
    expect(broken).toMatchObject({ status: 502, kind: 'build', error: { code: 'BAD_GATEWAY' } });
    expect(broken.error.message).toMatch(/\/app\/api\/index\.ts:2:\d+: /);
    const fs = await failure({ '/app/api/index.ts': "import 'node:fs'; export default {}" });
    expect(fs.error.message).toContain('"node:fs" cannot be imported');
    expect(await failure({ '/app/api/index.ts': 'export const x = 1;' })).toMatchObject({ status: 502, kind: 'bad-export' }); // prettier-ignore
    const bad = await failure({ '/app/api/index.ts': 'export default { fetch: () => 42 }' });
    expect(bad).toMatchObject({ status: 502, kind: 'bad-response' });
    expect(bad.error.message).toContain('fetch returned number 42, not a Response');
    const threw = await failure({ '/app/api/index.ts': 'export default { fetch() { throw new RangeError("too far") } }' }); // prettier-ignore
    expect(threw).toMatchObject({ status: 502, kind: 'threw' });
    expect(threw.error.message).toContain('RangeError: too far');
    const top = await failure({ '/app/api/index.ts': 'throw new Error("at load"); export default {}' }); // prettier-ignore
    expect(top).toMatchObject({ status: 502, kind: 'boot' });
    expect(top.error.message).toContain('at load');
  });
});

describe('a changed or republished backend', () => {
  it('is picked up at the next request', async () => {
    const v = (n: number) => ({ '/app/api/index.ts': `export default { fetch: () => new Response('v${n}') }` }); // prettier-ignore
    const { sid, session } = await b.publish(v(1));
    expect((await b.call(sid, '/')).body).toBe('v1');
    await push(b, session, v(2));
    expect((await b.call(sid, '/')).body).toBe('v2');
    // Another session published for the app.
    const next = (await b.api('POST', '/sessions', {})).id as string;
    await push(b, next, v(4));
    await b.api('POST', `/apps/${sid}/publish`, { sessionId: next });
    expect((await b.call(sid, '/')).body).toBe('v4');
  });
});

describe('response headers and callers', () => {
  const HEADERS = `
export default { fetch(request) {
  const path = new URL(request.url).pathname;
  const send = (headers) => new Response('x', { status: 302, headers });
  if (path === '/ctl') return send({ 'x-bad': 'a\\u0001b' });
  if (path === '/wide') return send({ 'x-bad': 'a\\u0100b' });
  if (path === '/huge') return send({ 'x-big': 'y'.repeat(8 << 20) });
  if (path === '/js') return send({ location: 'javascript:alert(1)' });
  return send({
    'access-control-allow-origin': 'https://evil.example', 'access-control-allow-credentials': 'true',
    'clear-site-data': '"cookies"', refresh: '0;url=https://evil.example', 'set-cookie': 'a=b',
    'strict-transport-security': 'max-age=1', 'x-frame-options': 'ALLOWALL',
    'cross-origin-opener-policy': 'unsafe-none', 'service-worker-allowed': '/',
    'content-security-policy': 'default-src *', 'content-security-policy-report-only': 'x',
    'x-stage-backend-error': 'forged', 'x-platform-identity': 'forged', 'www-authenticate': 'Basic',
    'cache-control': 'no-store', etag: '"e1"', 'x-custom': 'kept', location: 'https://example.com/next',
  });
} };`;
  let sid: string;
  beforeAll(async () => {
    ({ sid } = await b.publish({ '/app/api/index.js': HEADERS }));
  });

  it('passes only allowed headers: nothing that changes what the platform origin allows', async () => {
    const res = await b.call(sid, '/', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(302);
    for (const name of [
      ...['access-control-allow-origin', 'access-control-allow-credentials', 'clear-site-data'],
      ...['refresh', 'set-cookie', 'strict-transport-security', 'x-frame-options'],
      ...['cross-origin-opener-policy', 'service-worker-allowed', 'content-security-policy-report-only'], // prettier-ignore
      ...['x-stage-backend-error', 'x-platform-identity', 'www-authenticate'],
    ])
      expect([name, res.headers[name]]).toEqual([name, undefined]);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store', etag: '"e1"', 'x-custom': 'kept', location: 'https://example.com/next' }); // prettier-ignore
    expect((await b.call(sid, '/js')).headers.location).toBeUndefined();
  });

  it('answers 502 for invalid, non-ByteString or oversized header values', async () => {
    for (const [path, kind, why] of [
      ['/ctl', 'bad-response', 'its header "x-bad" has an invalid name or value'],
      ['/wide', 'threw', 'TypeError: Invalid header value for x-bad'],
      ['/huge', 'bad-response', 'its headers are over 32768 bytes'],
    ]) {
      const res = await b.call(sid, path);
      expect([path, res.status, res.headers['x-stage-backend-error']]).toEqual([path, 502, kind]);
      expect(res.json().error.message).toContain(why);
    }
  });

  it('refuses an anonymous CORS preflight when authentication is on', async () => {
    const res = await b.call(sid, '/', {
      method: 'OPTIONS',
      identity: null,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect([res.status, res.json().error.code]).toEqual([401, 'UNAUTHORIZED']);
  });
});
