import { authSettings, buildServiceApp, Metrics } from '@platform/core';
import { AUTH_ENV, CALLERS, deadUrl, identityHeaders, keyCaller } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Issue 38, item 1: `GET /metrics` in Prometheus' text format, read by the parser Prometheus'
// own tools agree with (prom2json's output), counters moving with the traffic; never public.

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
  buckets?: Record<string, string>;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module without types
const parse = require('parse-prometheus-text-format') as (text: string) => Family[];

const TOKEN = 'metrics-token-of-the-tests-0123456789';
const USED = ['catalog', 'pulse', 'ledger', 'inference'];

let gw: GatewayUnderTest;
beforeAll(async () => {
  gw = await gatewayUnderTest(
    {
      ...AUTH_ENV,
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_MAX: '4',
      RATE_LIMIT_ALLOW: 'none',
      // Nothing listens there: the in-process fallback answers for catalog.
      CATALOG_PROXY_URL: await deadUrl(),
    },
    { services: SERVICES.filter((s) => USED.includes(s.name)) },
  );
}, 60_000);
afterAll(() => gw.close());

let address = 0;
/** A request from an address of its own (each under the rate limit). */
const call = async (url: string, headers: Record<string, string> = {}) =>
  gw.app.inject({
    url,
    remoteAddress: `10.1.0.${++address}`,
    headers: { ...(await identityHeaders(CALLERS.admin)), ...headers },
  });

let lastScrape = '';
async function scrape(): Promise<Family[]> {
  const res = await gw.app.inject({
    url: '/metrics',
    remoteAddress: `10.2.0.${++address}`,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  lastScrape = res.body;
  return parse(res.body);
}
const family = (all: Family[], name: string) => all.find((f) => f.name === name);
const valueOf = (all: Family[], name: string, labels: Record<string, string>) =>
  Number(
    family(all, name)?.metrics.find((m) =>
      Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
    )?.value ?? 0,
  );

it('is read by admins and bearers of METRICS_TOKEN only', async () => {
  const as = async (headers: Record<string, string | undefined>) =>
    (await gw.app.inject({ url: '/metrics', remoteAddress: `10.3.0.${++address}`, headers }))
      .statusCode;
  expect(await as({})).toBe(401);
  expect(await as({ authorization: 'Bearer wrong' })).toBe(403);
  expect(await as({ authorization: `Bearer ${TOKEN}x` })).toBe(403);
  expect(await as(await identityHeaders(CALLERS.viewer))).toBe(403);
  expect(await as(await identityHeaders(keyCaller(['pulse:read'])))).toBe(403);
  expect(await as(await identityHeaders(CALLERS.admin))).toBe(200);
  expect(await as({ authorization: `Bearer ${TOKEN}` })).toBe(200);
});

it('counts requests by route template, proxied calls by who answered, refusals', async () => {
  const before = await scrape();
  for (let i = 0; i < 3; i++)
    expect((await call('/api/v1/pulse/events?limit=5')).statusCode).toBe(200);
  expect((await call('/api/v1/catalog/services/no-such-service')).statusCode).toBe(404);
  const admin = await identityHeaders(CALLERS.admin);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await gw.app.inject({
      url: '/api/v1/pulse/events',
      remoteAddress: '10.9.9.9',
      headers: admin,
    });
    statuses.push(res.statusCode);
  }
  expect(statuses).toEqual([200, 200, 200, 200, 429]);
  const after = await scrape();

  const route = { route: '/api/v1/pulse/events', method: 'GET', status: '200' };
  const requests = 'platform_http_requests_total';
  expect(valueOf(after, requests, route) - valueOf(before, requests, route)).toBe(3 + 4);
  // The template, never the URL as sent.
  const labels = family(after, requests)?.metrics.map((m) => m.labels?.route) ?? [];
  expect(labels).toContain('/api/v1/catalog/services/:idOrName');
  expect(labels.some((l) => l?.includes('no-such-service') || l?.includes('?'))).toBe(false);
  const latency = family(after, 'platform_http_request_duration_seconds');
  expect(latency?.type).toBe('HISTOGRAM');
  expect(Object.keys(latency?.metrics[0].buckets ?? {})).toContain('0.1');
  // The parser keeps a labelled histogram's buckets, not its labels: its count line as written.
  const count = new RegExp(
    '^platform_http_request_duration_seconds_count\\{route="/api/v1/pulse/events",method="GET",status="200"\\} (\\d+)$',
    'm',
  ).exec(lastScrape);
  expect(Number(count?.[1])).toBeGreaterThanOrEqual(7);

  const proxied = { service: 'catalog', served_by: 'fallback', status: '404' };
  expect(valueOf(after, 'platform_proxy_requests_total', proxied)).toBe(1);
  expect(valueOf(after, 'platform_rate_limit_refusals_total', { by: 'address' })).toBe(1);
  // The services' queues, read at the scrape.
  expect(family(after, 'platform_jobs_queued')).toBeDefined();
  expect(family(after, 'platform_jobs_failed')).toBeDefined();
});

it('counts inference calls, tokens and cost by provider and model', async () => {
  const before = await scrape();
  const admin = await identityHeaders(CALLERS.admin);
  for (const content of ['hello', 'hello again, a little longer'])
    expect(
      (
        await gw.app.inject({
          method: 'POST',
          url: '/api/v1/inference/chat',
          remoteAddress: `10.4.0.${++address}`,
          headers: admin,
          payload: { model: 'mock-1', messages: [{ role: 'user', content }] },
        })
      ).statusCode,
    ).toBe(200);
  const after = await scrape();
  const mock = { provider: 'mock', model: 'mock-1' };
  const delta = (name: string, labels: Record<string, string>) =>
    valueOf(after, name, labels) - valueOf(before, name, labels);
  expect(delta('platform_inference_calls_total', { ...mock, kind: 'chat', status: 'ok' })).toBe(2);
  expect(delta('platform_inference_tokens_total', { ...mock, direction: 'input' })).toBeGreaterThan(
    0,
  );
  expect(
    delta('platform_inference_tokens_total', { ...mock, direction: 'output' }),
  ).toBeGreaterThan(0);
  // The mock model is free: no cost counted, and no series invented for it.
  expect(delta('platform_inference_cost_microdollars_total', mock)).toBe(0);
});

it('is served by a standalone service from its own registry', async () => {
  const pulse = SERVICES.find((s) => s.name === 'pulse')!;
  const metrics = new Metrics({ service: 'pulse' });
  const app = await buildServiceApp(
    pulse,
    { database: gw.db, config: pulse.config({}), jobs: false, auth: authSettings(AUTH_ENV) },
    { metrics: { metrics, route: { token: TOKEN, authOn: true } } },
  );
  try {
    await app.inject({ url: '/api/v1/pulse/healthz' });
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const res = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const health = { route: '/api/v1/pulse/healthz', method: 'GET', status: '200' };
    expect(valueOf(parse(res.body), 'platform_http_requests_total', health)).toBe(1);
    expect(
      family(parse(res.body), 'platform_http_requests_total')?.metrics[0].labels?.service,
    ).toBe('pulse');
    // The gateway's registry is another one: the two instances share nothing.
    expect(metrics.registry).not.toBe((gw.app as unknown as { metrics: Metrics }).metrics.registry);
  } finally {
    await app.close();
  }
});
