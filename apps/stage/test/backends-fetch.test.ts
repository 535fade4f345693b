import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { backendsUnderTest, type Backends } from './backends-helpers';

// fetch in app backends: performed by the service through the private-address guard, with
// STAGE_BACKEND_FETCH_ALLOW naming the test's own server on 127.0.0.1 (a second one is not
// named: refused), bounded in time and size. The servers are real HTTP peers on port 0.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

let b: Backends;
let peer: { server: Server; port: number };
let other: { server: Server; port: number };
let otherHits = 0;
let inFlight = 0;
let mostInFlight = 0;
const held: ServerResponse[] = [];

beforeAll(async () => {
  other = await serve((_req, res) => {
    otherHits += 1;
    res.end('private');
  });
  peer = await serve((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json', 'x-custom': 'yes' });
        return res.end(JSON.stringify({ hello: 'world' }));
      case '/echo':
        res.writeHead(201, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'], test: req.headers['x-test'] })); // prettier-ignore
      case '/bytes':
        return res.end(Buffer.from([0, 1, 2, 255]));
      case '/redirect':
        res.writeHead(302, { location: '/json' });
        return res.end();
      case '/redirect-away':
        res.writeHead(302, { location: `http://127.0.0.1:${other.port}/json` });
        return res.end();
      case '/big':
        return res.end('x'.repeat(5000));
      case '/big-chunked':
        for (let i = 0; i < 10; i++) res.write('y'.repeat(500));
        return res.end();
      case '/slow':
        held.push(res); // never answered
        return;
      case '/count':
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          res.end('ok');
        }, 20);
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
  b = await backendsUnderTest({
    STAGE_BACKEND_FETCH_ALLOW: `127.0.0.1:${peer.port}`,
    STAGE_BACKEND_FETCH_MAX_BYTES: '1000',
    STAGE_BACKEND_FETCH_TIMEOUT_MS: '500',
  });
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await b.s.svc.close();
  await new Promise((resolve) => peer.server.close(resolve));
  await new Promise((resolve) => other.server.close(resolve));
});

const APP = `
export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    const init = q.has('init') ? JSON.parse(q.get('init')) : undefined;
    if (q.get('mode') === 'many') {
      const all = await Promise.all(Array.from({ length: 40 }, () => fetch(q.get('url')).then((r) => r.text())));
      return Response.json({ answered: all.filter((t) => t === 'ok').length });
    }
    try {
      const res = await fetch(q.get('url'), init);
      const mode = q.get('mode') ?? 'text';
      const body = mode === 'json' ? await res.json()
        : mode === 'bytes' ? [...new Uint8Array(await res.arrayBuffer())]
        : await res.text();
      return Response.json({
        status: res.status, statusText: res.statusText, ok: res.ok, redirected: res.redirected, url: res.url,
        type: res.headers.get('content-type'), custom: res.headers.get('x-custom'), location: res.headers.get('location'),
        body,
      });
    } catch (e) {
      return Response.json({ error: { name: e.name, typeError: e instanceof TypeError, message: e.message } });
    }
  },
};
`;

let sid: string;
beforeAll(async () => {
  sid = (await b.publish({ '/app/api/index.ts': APP })).sid;
});

const through = async (url: string, extra: Record<string, string> = {}) => {
  const res = await b.call(sid, `/?${new URLSearchParams({ url, ...extra })}`);
  expect(res.status).toBe(200);
  return res.json();
};
const at = (path: string) => `http://127.0.0.1:${peer.port}${path}`;

describe('fetch in a backend', () => {
  it('answers a real Response: status, headers, body as text, json and bytes', async () => {
    expect(await through(at('/json'), { mode: 'json' })).toMatchObject({
      status: 200,
      statusText: 'OK',
      ok: true,
      redirected: false,
      url: at('/json'),
      type: 'application/json',
      custom: 'yes',
      body: { hello: 'world' },
    });
    expect((await through(at('/bytes'), { mode: 'bytes' })).body).toEqual([0, 1, 2, 255]);
    const init = JSON.stringify({ method: 'POST', body: 'a=1', headers: { 'x-test': 'sent' } });
    expect(await through(at('/echo'), { init, mode: 'json' })).toMatchObject({
      status: 201,
      body: { method: 'POST', body: 'a=1', type: 'text/plain;charset=UTF-8', test: 'sent' },
    });
  });

  it('follows redirects (or answers them, with redirect: manual)', async () => {
    expect(await through(at('/redirect'), { mode: 'json' })).toMatchObject({
      status: 200,
      redirected: true,
      url: at('/json'),
      body: { hello: 'world' },
    });
    const manual = await through(at('/redirect'), { init: JSON.stringify({ redirect: 'manual' }) });
    expect(manual).toMatchObject({ status: 302, location: '/json', redirected: false });
    const error = await through(at('/redirect'), { init: JSON.stringify({ redirect: 'error' }) });
    expect(error.error).toMatchObject({ typeError: true });
  });

  it('refuses private addresses not in STAGE_BACKEND_FETCH_ALLOW, at every hop', async () => {
    const direct = await through(`http://127.0.0.1:${other.port}/json`);
    expect(direct.error).toEqual({
      name: 'TypeError',
      typeError: true,
      message: `fetch 127.0.0.1:${other.port}: 127.0.0.1 is a loopback, private, link-local or unspecified address, refused (add 127.0.0.1:${other.port} to STAGE_BACKEND_FETCH_ALLOW to allow it)`,
    });
    const named = await through(`http://localhost:${other.port}/json`);
    expect(named.error.message).toContain('add localhost:');
    expect(named.error.message).toContain('STAGE_BACKEND_FETCH_ALLOW');
    const hop = await through(at('/redirect-away'));
    expect(hop.error.message).toContain(`fetch 127.0.0.1:${other.port}: 127.0.0.1 is a loopback`);
    const metadata = await through('http://169.254.169.254/latest/meta-data/');
    expect(metadata.error.message).toContain('169.254.169.254 is a loopback, private, link-local');
    expect(otherHits).toBe(0);
  });

  it('fetches http and https only', async () => {
    const file = await through('file:///etc/passwd');
    expect(file.error).toMatchObject({ typeError: true });
    expect(file.error.message).toContain('only http and https');
  });

  it('refuses an oversized answer, declared or streamed', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const big = await through(at(path));
      expect(big.error).toMatchObject({ name: 'TypeError', typeError: true });
      expect(big.error.message).toBe(
        `fetch 127.0.0.1:${peer.port}: the response body is over 1000 bytes (STAGE_BACKEND_FETCH_MAX_BYTES)`,
      );
    }
  });

  it('gives up on a slow answer after STAGE_BACKEND_FETCH_TIMEOUT_MS', async () => {
    const slow = await through(at('/slow'));
    expect(slow.error).toMatchObject({ name: 'TypeError', typeError: true });
    expect(slow.error.message).toBe(
      `fetch 127.0.0.1:${peer.port}: no complete answer within 500 ms (STAGE_BACKEND_FETCH_TIMEOUT_MS)`,
    );
  });

  it('counts as a platform call: at most 16 at once', async () => {
    mostInFlight = 0;
    expect(await through(at('/count'), { mode: 'many' })).toEqual({ answered: 40 });
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(16);
  });
});
