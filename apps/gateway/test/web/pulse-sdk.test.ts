import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, httpTransport } from '@platform/client';
import { newApiKey } from '@platform/passport';
import { AUTH_ENV } from '@platform/testing';
import { webTest } from './harness';

// posthog-js, unmodified (its browser bundle from node_modules), on a page of another site (a
// second local server: another origin), with a write-only key (pulse:ingest), against the whole
// platform with authentication on. What it sends is what arrives: events, properties, persons.

const ADMIN = newApiKey();
const web = webTest({ ...AUTH_ENV, PLATFORM_API_KEY: ADMIN });
const BUNDLE = require.resolve('posthog-js/dist/array.full.no-external.js');

let site: Server;
let siteUrl: string;
const keys = { ingest: '', read: '' };

function page(platform: string, key: string) {
  const options = {
    api_host: `${platform}/api/v1/pulse/posthog`,
    autocapture: false,
    capture_pageleave: false,
    capture_performance: false,
    capture_dead_clicks: false,
    disable_session_recording: true,
    disable_surveys: true,
    request_batching: false,
    // Headless Chromium says so in its user agent: posthog-js would drop its events as a bot's.
    opt_out_useragent_filter: true,
  };
  return `<!doctype html><html lang="en"><head><title>Shop</title>
<script src="/posthog.js"></script>
<script>posthog.init(${JSON.stringify(key)}, ${JSON.stringify(options)});</script>
</head><body><main><h1>Shop</h1>
<button onclick="posthog.capture('clicked buy', { sku: 'A1' })">Buy</button>
<button onclick="posthog.identify('web-user', { email: 'w@example.com' })">Sign in</button>
</main></body></html>`;
}

beforeAll(async () => {
  const admin = createClient(httpTransport(web.url, { headers: { 'x-api-key': ADMIN } }));
  const make = async (name: string, scope: string) =>
    (await admin.passport.createKey({ body: { name, scopes: [scope] } })).key;
  keys.ingest = await make('shop-site', 'pulse:ingest');
  keys.read = await make('analyst', 'pulse:read');
  const bundle = readFileSync(BUNDLE);
  site = createServer((request, response) => {
    if (request.url?.startsWith('/posthog.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    if (request.url?.startsWith('/shop')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(web.url, keys.ingest));
      return;
    }
    response.writeHead(request.url === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, 'localhost', resolve));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => site?.close(resolve)));

type Stored = {
  name: string;
  userId: string;
  sessionId: string | null;
  properties: Record<string, unknown>;
};
const read = async (path: string) =>
  (await fetch(`${web.url}/api/v1/pulse${path}`, { headers: { 'x-api-key': keys.read } })).json();

async function eventsWhen(done: (events: Stored[]) => boolean): Promise<Stored[]> {
  for (let i = 0; i < 100; i++) {
    const events = (await read('/events?limit=100')).data as Stored[];
    if (done(events)) return events;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (await read('/events?limit=100')).data as Stored[];
}

it('sends page views, events and identify from another site, and the persons merge', async () => {
  const { page: tab, errors, failures, clientErrors } = await web.openAt(siteUrl);
  await tab.goto('/shop?utm_source=newsletter');
  await tab.getByRole('button', { name: 'Buy' }).click();
  await eventsWhen((events) => events.some((e) => e.name === 'clicked buy'));
  await tab.getByRole('button', { name: 'Sign in' }).click();
  const events = await eventsWhen((list) => list.some((e) => e.name === '$identify'));

  expect(events.map((e) => e.name).sort()).toEqual(['$identify', '$pageview', 'clicked buy']);
  const byName = Object.fromEntries(events.map((e) => [e.name, e]));
  const anonymous = byName.$pageview.userId;
  expect(byName['clicked buy'].userId).toBe(anonymous);
  for (const e of [byName.$pageview, byName['clicked buy']]) {
    expect(e.properties).toMatchObject({
      $current_url: `${siteUrl}/shop?utm_source=newsletter`,
      $browser: 'Chrome',
      $lib: 'web',
      utm_source: 'newsletter',
    });
    expect(e.sessionId).toEqual(expect.any(String));
    expect(e.properties).not.toHaveProperty('token');
  }
  expect(byName['clicked buy'].properties).toMatchObject({ sku: 'A1' });
  expect(byName.$identify).toMatchObject({
    userId: 'web-user',
    properties: expect.objectContaining({ $anon_distinct_id: anonymous }),
  });
  expect(JSON.stringify(events)).not.toContain(keys.ingest);

  const person = (await read('/persons/web-user')).data;
  expect(person).toMatchObject({
    distinctIds: [anonymous, 'web-user'].sort(),
    identified: true,
    properties: expect.objectContaining({ email: 'w@example.com' }),
  });
  expect((await read(`/persons/${anonymous}`)).data.id).toBe(person.id);

  expect(errors).toEqual([]);
  expect(failures).toEqual([]);
  expect(clientErrors).toEqual([]);
});

it('a write-only key in the page reads nothing, even from the page', async () => {
  const { page: tab } = await web.openAt(siteUrl);
  await tab.goto('/shop');
  const status = await tab.evaluate(
    async ([platform, key]) =>
      fetch(`${platform}/api/v1/pulse/events`, { headers: { 'x-api-key': key } }).then(
        (response) => response.status,
        () => 0, // refused by CORS: not even the refusal is readable
      ),
    [web.url, keys.ingest],
  );
  // The platform's own routes keep CORS_ORIGINS: the browser may not even read the refusal.
  expect(status === 403 || status === 0).toBe(true);
  const direct = await fetch(`${web.url}/api/v1/pulse/events`, {
    headers: { 'x-api-key': keys.ingest },
  });
  expect(direct.status).toBe(403);
});
