import { join } from 'node:path';
import {
  Type,
  badRequest,
  defineService,
  ok,
  type App,
  type ServiceManifest,
} from '@platform/core';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

let gw: GatewayUnderTest;
afterEach(() => gw?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'GET', url, headers });

describe('routing', () => {
  beforeEach(async () => {
    gw = await gatewayUnderTest();
  });

  it('answers /healthz with the gateway name and version', async () => {
    expect((await get('/healthz')).json()).toEqual({
      success: true,
      data: { name: 'gateway', version: expect.any(String), status: 'ok' },
    });
  });

  it('mounts pulse in-process under /api/v1/pulse', async () => {
    const created = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'x' },
    });
    expect(created.statusCode).toBe(201);
    expect((await get('/api/v1/pulse/events')).json().data).toHaveLength(1);
  });

  it('answers an unmatched /api path with a JSON 404 envelope, never the dashboard', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nothing'],
      ['GET', '/api/v1/pulse/nothing'],
      ['POST', '/api/v1/pulse/nothing'],
      ['GET', '/api'],
    ] as const) {
      const res = await gw.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: `Route ${method} ${url} not found` },
      });
    }
  });

  it("serves a service's index.html for any path under it, and the dashboard elsewhere", async () => {
    const service = await get('/pulse/some/client/route');
    expect(service.statusCode).toBe(200);
    expect(service.headers['content-type']).toMatch(/text\/html/);
    expect(service.body).toContain('<title>Analytics · Platform</title>');
    expect((await get('/pulse/')).body).toContain('<title>Analytics · Platform</title>');
    for (const url of ['/', '/somewhere/else', '/nowhere/x']) {
      const dashboard = await get(url);
      expect(dashboard.statusCode).toBe(200);
      expect(dashboard.body).toContain('<title>Platform</title>');
    }
    // The built assets beside each index.html: the dashboard's under /assets, a service's under it.
    for (const page of ['/', '/pulse/']) {
      const script = /src="([^"]+\.js)"/.exec((await get(page)).body)![1];
      expect(script.startsWith(page === '/' ? '/assets/' : '/pulse/assets/')).toBe(true);
      const asset = await get(script);
      expect([asset.statusCode, asset.headers['content-type']]).toEqual([
        200,
        expect.stringMatching(/javascript/),
      ]);
    }
  });

  it('allows only the configured origins when CORS_ORIGINS lists them', async () => {
    await gw.close();
    gw = await gatewayUnderTest({ CORS_ORIGINS: 'https://a.example, https://b.example' });
    const allowed = await get('/healthz', { origin: 'https://b.example' });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://b.example');
    const other = await get('/healthz', { origin: 'https://evil.example' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sets security headers and CORS on API and static responses', async () => {
    for (const url of ['/api/v1/pulse/events', '/', '/api/v1/nothing']) {
      const res = await get(url, { origin: 'https://tools.example' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const preflight = await gw.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/pulse/events',
      headers: { origin: 'https://tools.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
  });

  it('honours an incoming x-request-id and makes one otherwise', async () => {
    expect((await get('/healthz', { 'x-request-id': 'trace-123' })).headers['x-request-id']).toBe(
      'trace-123',
    );
    expect((await get('/healthz')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A header that could smuggle text into logs is replaced.
    expect(
      (await get('/healthz', { 'x-request-id': 'bad id\twith tab' })).headers['x-request-id'],
    ).not.toContain(' ');
  });

  it('turns malformed JSON and oversized bodies into 400 and 413 envelopes', async () => {
    const malformed = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('BAD_REQUEST');
    const big = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'x', properties: { blob: 'x'.repeat(1024 * 1024) } },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Request body exceeds the limit of 1048576 bytes',
    });
  });

  it('reports every enabled service in the aggregated health', async () => {
    expect((await get('/api/v1/health')).json().data).toEqual({
      status: 'ok',
      version: expect.any(String),
      services: SERVICES.filter((s) => !s.experimental).map((s) => ({
        name: s.name,
        status: 'ok',
        version: s.version,
        via: 'in-process',
      })),
    });
  });

  it('serves the merged OpenAPI document and the API reference', async () => {
    const doc = (await get('/api/v1/openapi.json')).json();
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/healthz',
        '/api/v1/health',
        '/api/v1/features',
        '/api/v1/pulse/events',
        '/api/v1/pulse/events/batch',
        '/api/v1/pulse/reports/top-events',
      ]),
    );
    expect(
      doc.paths['/api/v1/pulse/events'].post.requestBody.content['application/json'].schema
        .required,
    ).toEqual(['name']);
    const docs = await get('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    expect(docs.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect((await get('/docs/static/swagger-ui-bundle.js')).statusCode).toBe(200);
    const served = (await get('/docs/json')).json();
    expect(Object.keys(served.paths)).toContain('/api/v1/pulse/events');
  });
});

describe('errors from services', () => {
  const boom: ServiceManifest = {
    ...defineService({
      name: 'boom',
      title: 'Failure injection',
      root: join(__dirname, '..'),
      defaultPort: 0,
      migrations: {},
      routes: [boomRoutes],
    }),
    webRoot: join(__dirname, '..', 'web', 'dist'),
  };
  const config = { access: { resource: 'boom.thing', action: 'read' as const } };
  async function boomRoutes(app: App) {
    app.get('/crash', { config, schema: { operationId: 'crash' } }, async () => {
      throw new Error('select secret from credentials where password = hunter2');
    });
    app.get('/refuse', { config, schema: { operationId: 'refuse' } }, async () => {
      throw badRequest('colour must be red or blue');
    });
    app.get(
      '/fine',
      {
        config,
        schema: {
          operationId: 'fine',
          response: {
            200: Type.Object({
              success: Type.Boolean(),
              data: Type.Object({ a: Type.Integer() }),
            }),
          },
        },
      },
      async () => ok({ a: 1, secret: 'never serialized' }),
    );
  }

  beforeEach(async () => {
    gw = await gatewayUnderTest({}, { services: [...SERVICES, boom] });
  });

  it('turns an uncaught error into INTERNAL_ERROR without leaking its text', async () => {
    const res = await get('/api/v1/boom/crash', { 'x-request-id': 'req-42' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error (request id req-42)' },
    });
    expect(res.body).not.toMatch(/secret|hunter2|at .*\.ts/);
  });

  it("passes a service's structured error through", async () => {
    const res = await get('/api/v1/boom/refuse');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: 'colour must be red or blue',
    });
  });

  it('never sends a field that the response schema does not declare', async () => {
    expect((await get('/api/v1/boom/fine')).json()).toEqual({ success: true, data: { a: 1 } });
  });
});
