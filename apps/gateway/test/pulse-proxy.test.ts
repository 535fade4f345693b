import { Analytics } from '@segment/analytics-node';
import { PostHog } from 'posthog-node';
import { createClient, httpTransport } from '@platform/client';
import { authSettings, buildServiceApp, type App } from '@platform/core';
import { newApiKey } from '@platform/passport';
import { pulse } from '@platform/pulse';
import { AUTH_ENV, deadUrl, listen } from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// The key in the body where pulse runs on its own behind the gateway's proxy, which reads the key
// from the bytes as sent (gzip included) and forwards the caller's identity; and reached
// directly, where the service checks the key with GET /api/v1/passport/me (no scope needed).

const ADMIN = newApiKey();
let gw: GatewayUnderTest;
let base: string;
let pulseUrl: string;
let standalone: App;
let ingestKey: string;
let readKey: string;

beforeAll(async () => {
  pulseUrl = await deadUrl();
  gw = await gatewayUnderTest({
    ...AUTH_ENV,
    PLATFORM_API_KEY: ADMIN,
    PULSE_PROXY_URL: pulseUrl,
    CORS_ORIGINS: 'https://platform.example',
  });
  base = await listen(gw.app);
  standalone = await buildServiceApp(pulse, {
    database: gw.db,
    config: undefined,
    jobs: false,
    auth: authSettings(AUTH_ENV),
    platform: { url: base },
  });
  await standalone.listen({ port: Number(new URL(pulseUrl).port), host: '127.0.0.1' });
  const admin = createClient(httpTransport(base, { headers: { 'x-api-key': ADMIN } }));
  const make = async (scope: string) =>
    (await admin.passport.createKey({ body: { name: scope, scopes: [scope] } })).key;
  ingestKey = await make('pulse:ingest');
  readKey = await make('pulse:read');
});
afterAll(async () => {
  await standalone?.close();
  await gw?.close();
});

const names = async (userId: string) => {
  const res = await fetch(`${base}/api/v1/pulse/events?userId=${userId}`, {
    headers: { 'x-api-key': readKey },
  });
  return ((await res.json()).data as { name: string }[]).map((e) => e.name).sort();
};

async function capture(host: string, distinctId: string, key = ingestKey) {
  const ph = new PostHog(key, {
    host: `${host}/api/v1/pulse/posthog`,
    flushInterval: 0,
    fetchRetryCount: 0,
  });
  const failures: unknown[] = [];
  ph.on('error', (error) => failures.push(error));
  ph.capture({ distinctId, event: 'proxied' });
  ph.identify({ distinctId, properties: { $set: { via: host } } });
  await ph.shutdown();
  return failures;
}

it('takes posthog-node (gzip, key in the body) through the proxy', async () => {
  expect(await capture(base, 'through-proxy')).toEqual([]);
  expect(await names('through-proxy')).toEqual(['$identify', 'proxied']);
  // An unknown key is refused, nothing stored.
  const failures = await capture(base, 'refused', newApiKey());
  expect(failures).toEqual([expect.objectContaining({ name: 'PostHogFetchHttpError' })]);
  expect((failures[0] as { response: Response }).response.status).toBe(401);
  expect(await names('refused')).toEqual([]);
});

it('takes posthog-node at the standalone service directly, checking the key with passport', async () => {
  expect(await capture(pulseUrl, 'direct')).toEqual([]);
  expect(await names('direct')).toEqual(['$identify', 'proxied']);
  const failures = await capture(pulseUrl, 'direct-refused', newApiKey());
  expect((failures[0] as { response: Response }).response.status).toBe(401);
  expect(await names('direct-refused')).toEqual([]);
});

it('takes analytics-node (HTTP Basic) through the proxy', async () => {
  for (const [host, userId] of [[base, 'seg-proxy']]) {
    const analytics = new Analytics({
      writeKey: ingestKey,
      host,
      path: '/api/v1/pulse/segment/v1/batch',
      maxRetries: 0,
    });
    const failures: unknown[] = [];
    analytics.on('error', (error) => failures.push(error));
    analytics.track({ userId, event: 'bought' });
    await analytics.closeAndFlush();
    expect(failures).toEqual([]);
    expect(await names(userId)).toEqual(['bought']);
  }
});

it('answers a preflight from any site for the proxied ingestion routes only', async () => {
  const preflight = (path: string) =>
    gw.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
  expect((await preflight('/api/v1/pulse/posthog/e/')).headers['access-control-allow-origin']).toBe(
    '*',
  );
  expect(
    (await preflight('/api/v1/pulse/events')).headers['access-control-allow-origin'],
  ).toBeUndefined();
});
