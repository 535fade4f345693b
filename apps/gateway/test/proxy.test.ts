import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { deadUrl, listen, serviceUnderTest, sleep, type ServiceUnderTest } from '@platform/testing';
import { pulse } from '@platform/pulse';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

let gw: GatewayUnderTest;
afterEach(() => gw?.close());

/** Pulse's entry in the aggregated health. */
const pulseIn = (health: { services: Array<{ name: string }> }) =>
  health.services.find((s) => s.name === 'pulse');

describe('proxy mode with a real standalone pulse', () => {
  let standalone: ServiceUnderTest;
  let standaloneUrl: string;
  beforeEach(async () => {
    standalone = await serviceUnderTest(pulse);
    standaloneUrl = await listen(standalone.app);
    gw = await gatewayUnderTest({ PULSE_PROXY_URL: standaloneUrl });
  });
  afterEach(() => standalone.close());

  it('forwards requests to the standalone service, whose database keeps the data', async () => {
    const created = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'proxied', userId: 'u1' },
      headers: { 'x-request-id': 'through-proxy' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['x-request-id']).toBe('through-proxy');
    expect(created.headers['x-served-by']).toBeUndefined();

    const direct = await standalone.app.inject({ method: 'GET', url: '/api/v1/pulse/events' });
    expect(direct.json().data.map((e: { name: string }) => e.name)).toEqual(['proxied']);
    const own = await gw.db.kysely.withSchema('pulse').selectFrom('events').selectAll().execute();
    expect(own).toEqual([]);

    const listed = await gw.app.inject({ method: 'GET', url: '/api/v1/pulse/events?userId=u1' });
    expect(listed.json().data).toEqual([created.json().data]);
  });

  it("passes the service's HTTP errors through unchanged", async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { userId: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Event name is required (name)');
    expect(
      (await gw.app.inject({ method: 'GET', url: '/api/v1/pulse/events/none' })).statusCode,
    ).toBe(404);
  });

  it('checks health at the standalone service', async () => {
    const health = (await gw.app.inject({ method: 'GET', url: '/api/v1/health' })).json().data;
    expect(pulseIn(health)).toEqual({
      name: 'pulse',
      status: 'ok',
      version: pulse.version,
      via: 'proxy',
    });
  });

  it('documents the proxied routes in the merged OpenAPI document', async () => {
    const doc = (await gw.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/pulse/events', '/api/v1/pulse/reports/top-events']),
    );
    expect(Object.keys(doc.paths).some((p) => p.includes('*'))).toBe(false);
  });

  it('answers as absent while the flag is off', async () => {
    await gw.app.inject({
      method: 'PUT',
      url: '/api/v1/features/pulse',
      payload: { enabled: false },
    });
    const res = await gw.app.inject({ method: 'GET', url: '/api/v1/pulse/events' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Route GET /api/v1/pulse/events not found');
  });
});

describe('what the proxy sends', () => {
  let upstream: Server;
  let seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }>;
  let reply: { status: number; body: string };

  beforeEach(async () => {
    seen = [];
    reply = { status: 200, body: '{"success":true,"data":"upstream"}' };
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        res
          .writeHead(reply.status, { 'content-type': 'application/json', 'x-upstream': 'yes' })
          .end(reply.body);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    gw = await gatewayUnderTest({ PULSE_PROXY_URL: `http://127.0.0.1:${port}` });
  });
  afterEach(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('keeps method, path, query and body bytes; replaces host with x-forwarded-host/-proto; passes x-request-id', async () => {
    const body = '{ "name" :  "spaced",\n "n": 1.50 }';
    const res = await gw.app.inject({
      method: 'PATCH',
      url: '/api/v1/pulse/things/42?b=2&a=1',
      headers: {
        host: 'platform.example:3000',
        'content-type': 'application/json',
        'x-request-id': 'rid-7',
        'x-custom': 'kept',
      },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.json().data).toBe('upstream');
    const [forwarded] = seen;
    expect(forwarded.method).toBe('PATCH');
    expect(forwarded.url).toBe('/api/v1/pulse/things/42?b=2&a=1');
    expect(forwarded.body).toBe(body);
    expect(forwarded.headers.host).not.toBe('platform.example:3000');
    expect(forwarded.headers['x-forwarded-host']).toBe('platform.example:3000');
    expect(forwarded.headers['x-forwarded-proto']).toBe('http');
    expect(forwarded.headers['x-request-id']).toBe('rid-7');
    expect(forwarded.headers['x-custom']).toBe('kept');
    expect(forwarded.headers['content-type']).toBe('application/json');
  });

  it('makes up a request id for the upstream when the client sent none', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/api/v1/pulse/events' });
    expect(seen[0].headers['x-request-id']).toBe(res.headers['x-request-id']);
  });

  it('passes an HTTP 500 from the target through once, without falling back or retrying', async () => {
    reply = {
      status: 500,
      body: '{"success":false,"error":{"code":"INTERNAL_ERROR","message":"upstream broke"}}',
    };
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('upstream broke');
    expect(res.headers['x-served-by']).toBeUndefined();
    expect(seen).toHaveLength(1);
  });
});

describe('proxy mode with an unreachable target', () => {
  beforeEach(async () => {
    gw = await gatewayUnderTest({ PULSE_PROXY_URL: await deadUrl() });
  });

  it('serves API requests in-process instead, body and all', async () => {
    const created = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'fallback' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['x-served-by']).toBe('in-process-fallback');
    expect(created.json().data.name).toBe('fallback');
    const own = await gw.db.kysely
      .withSchema('pulse')
      .selectFrom('events')
      .select('name')
      .execute();
    expect(own).toEqual([{ name: 'fallback' }]);
    const invalid = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: {},
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.code).toBe('BAD_REQUEST');
  });

  it('falls back in-process for the health check too', async () => {
    const health = (await gw.app.inject({ method: 'GET', url: '/api/v1/health' })).json().data;
    expect(health.status).toBe('ok');
    expect(pulseIn(health)).toMatchObject({ status: 'ok', via: 'fallback' });
  });

  it('does so over a real socket as well', async () => {
    const base = await listen(gw.app);
    const res = await request(`${base}/api/v1/pulse/events/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ name: 'a' }, { name: 'b' }] }),
    });
    expect(res.statusCode).toBe(201);
    expect(await res.body.json()).toEqual({ success: true, data: { ingested: 2, duplicates: 0 } });
  });
});

describe('proxy mode with a target that accepts but does not answer', () => {
  let hanging: Server;
  beforeEach(async () => {
    hanging = createServer(() => undefined); // reads requests, never replies
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    gw = await gatewayUnderTest({
      PULSE_PROXY_URL: `http://127.0.0.1:${port}`,
      PROXY_TIMEOUT_MS: '300',
      HEALTH_TIMEOUT_MS: '300',
    });
  });
  afterEach(async () => {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  it('answers BAD_GATEWAY instead of serving in-process: the target may have acted on it', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toEqual({
      code: 'BAD_GATEWAY',
      message: expect.stringMatching(/^The pulse service at http:\/\/127\.0\.0\.1:\d+ failed: /),
    });
    expect(res.headers['x-served-by']).toBeUndefined();
    const own = await gw.db.kysely.withSchema('pulse').selectFrom('events').selectAll().execute();
    expect(own).toEqual([]);
  });

  it('reports the service unhealthy in the aggregated health, within the timeout', async () => {
    const health = (await gw.app.inject({ method: 'GET', url: '/api/v1/health' })).json().data;
    expect(health.status).toBe('degraded');
    expect(pulseIn(health)).toEqual({
      name: 'pulse',
      status: 'unhealthy',
      via: 'proxy',
      error: 'pulse did not answer within 300 ms',
    });
  });
});

describe('periodic jobs of a proxied service', () => {
  const oldEventAndPolicy = async () => {
    const post = (url: string, payload: object) =>
      gw.app.inject({ method: 'POST', url: `/api/v1/ledger${url}`, payload });
    await post('/events', { action: 'old', timestamp: '2020-01-01T00:00:00Z' });
    await post('/policies', { name: 'year', retentionDays: 365 });
  };
  const remaining = async () =>
    (await gw.app.inject({ method: 'GET', url: '/api/v1/ledger/events' })).json().data.length;
  const timerTurns = async () => {
    for (let i = 0; i < 10; i++) await sleep(5);
  };

  it('run in the gateway when it runs the service in-process', async () => {
    gw = await gatewayUnderTest({ LEDGER_RETENTION_INTERVAL_MS: '20' });
    await oldEventAndPolicy();
    while ((await remaining()) > 0) await timerTurns();
    expect(await remaining()).toBe(0);
  });

  it('do not run in its in-process fallback: the standalone instance runs them', async () => {
    gw = await gatewayUnderTest({
      LEDGER_PROXY_URL: await deadUrl(),
      LEDGER_RETENTION_INTERVAL_MS: '20',
    });
    await oldEventAndPolicy();
    await timerTurns();
    expect(await remaining()).toBe(1);
  });
});
