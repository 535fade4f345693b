import { connect } from 'node:net';
import { listen } from '@platform/testing';
import { gatewayConfig, SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Abuse: too many requests from one client, and clients too slow to send theirs.

let gw: GatewayUnderTest;
afterEach(() => gw.close());

const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'GET', url, remoteAddress, headers });

describe('rate limiting', () => {
  beforeEach(async () => {
    gw = await gatewayUnderTest({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });

  it('answers a client over its limit 429 RATE_LIMITED with Retry-After, others as usual', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/v1/pulse/events', '10.0.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await get('/api/v1/catalog/services', '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          /^Too many requests: at most 3 per 1 minute; try again in \d+ s$/,
        ),
      },
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-request-id']).toBeDefined();
    expect((await get('/api/v1/pulse/events', '10.0.0.2')).statusCode).toBe(200);
  });

  it('never limits health probes or the loopback address (the laptop itself)', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await get('/healthz', '10.0.0.3')).statusCode).toBe(200);
      expect((await get('/api/v1/pulse/events', '127.0.0.1')).statusCode).toBe(200);
    }
  });

  it('counts clients behind a trusted proxy apart, by X-Forwarded-For', async () => {
    await gw.close();
    gw = await gatewayUnderTest({ RATE_LIMIT_MAX: '1', TRUST_PROXY: '10.9.9.9' });
    const via = (client: string) =>
      get('/api/v1/pulse/events', '10.9.9.9', { 'x-forwarded-for': client });
    expect((await via('192.0.2.1')).statusCode).toBe(200);
    expect((await via('192.0.2.2')).statusCode).toBe(200);
    expect((await via('192.0.2.1')).statusCode).toBe(429);
    // An untrusted sender cannot pick its address, loopback included: it is counted as itself.
    expect(
      (await get('/api/v1/pulse/events', '10.0.0.7', { 'x-forwarded-for': '127.0.0.1' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await get('/api/v1/pulse/events', '10.0.0.7', { 'x-forwarded-for': '2.2.2.2' })).statusCode,
    ).toBe(429);
  });

  it('is off with RATE_LIMIT_MAX=0, and refuses a bad value naming the variable', async () => {
    await gw.close();
    gw = await gatewayUnderTest({ RATE_LIMIT_MAX: '0' });
    for (let i = 0; i < 5; i++)
      expect((await get('/api/v1/pulse/events', '10.0.0.1')).statusCode).toBe(200);
    expect(() => gatewayConfig(SERVICES, { RATE_LIMIT_MAX: '-1' })).toThrow(/RATE_LIMIT_MAX/);
    // Believing any X-Forwarded-For would let a client pick its address (past the allow list).
    expect(() => gatewayConfig(SERVICES, { TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY must name the proxies to trust/,
    );
    expect(() => gatewayConfig(SERVICES, { REQUEST_TIMEOUT_MS: 'soon' })).toThrow(
      /REQUEST_TIMEOUT_MS/,
    );
  });
});

describe('slow clients', () => {
  /** Sends `text` on a raw connection and resolves with everything the server wrote back. */
  async function slowly(base: string, text: string) {
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(text);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => socket.on('close', resolve));
    return Buffer.concat(chunks).toString();
  }

  beforeEach(async () => {
    gw = await gatewayUnderTest({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' });
  });

  it('answers 408 REQUEST_TIMEOUT to headers that never end, and closes the connection', async () => {
    const answer = await slowly(
      await listen(gw.app),
      'GET /api/v1/pulse/events HTTP/1.1\r\nhost: x\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive' },
    });
  });

  it('answers 408 to a body that never arrives in full', async () => {
    const answer = await slowly(
      await listen(gw.app),
      'POST /api/v1/pulse/events HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
    expect(
      await gw.db.kysely.withSchema('pulse').selectFrom('events').selectAll().execute(),
    ).toEqual([]);
  });
});
