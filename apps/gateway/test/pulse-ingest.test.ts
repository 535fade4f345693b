import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Analytics } from '@segment/analytics-node';
import { PostHog } from 'posthog-node';
import { createClient, httpTransport } from '@platform/client';
import type { AccessDocument } from '@platform/core';
import { newApiKey } from '@platform/passport';
import { AUTH_ENV, listen, useService } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest } from './helpers';
import type { Document } from './sweep-inputs';

// posthog-node and @segment/analytics-node, unmodified, against the whole platform with
// authentication on: a write-only key (pulse:ingest) made in passport, sent as each library sends
// it (PostHog: in the body; Segment: HTTP Basic user). Such a key sends events from any site and
// reads nothing anywhere.

const ADMIN = newApiKey();
const PLATFORM_ORIGIN = 'https://platform.example';
const gw = useService(
  () => gatewayUnderTest({ ...AUTH_ENV, PLATFORM_API_KEY: ADMIN, CORS_ORIGINS: PLATFORM_ORIGIN }),
  { scope: 'all' },
);
let url: string;
const keys = { ingest: '', read: '' };
beforeAll(async () => {
  url = await listen(gw.app);
  const admin = createClient(httpTransport(url, { headers: { 'x-api-key': ADMIN } }));
  keys.ingest = (
    await admin.passport.createKey({ body: { name: 'site', scopes: ['pulse:ingest'] } })
  ).key;
  keys.read = (await admin.passport.createKey({ body: { name: 'r', scopes: ['pulse:read'] } })).key;
});

const read = async (path: string) =>
  (await fetch(`${url}/api/v1/pulse${path}`, { headers: { 'x-api-key': keys.read } })).json();
const eventsOf = async (userId: string) =>
  (await read(`/events?userId=${userId}`)).data as { name: string; properties: object }[];

it('stores what posthog-node sends with a write-only key, persons merged', async () => {
  const ph = new PostHog(keys.ingest, { host: `${url}/api/v1/pulse/posthog`, flushInterval: 0 });
  const failures: unknown[] = [];
  ph.on('error', (error) => failures.push(error));
  ph.capture({ distinctId: 'ph-anon', event: 'viewed', properties: { $current_url: '/x' } });
  ph.identify({
    distinctId: 'ph-user',
    properties: { $anon_distinct_id: 'ph-anon', $set: { a: 1 } },
  });
  await ph.shutdown();
  expect(failures).toEqual([]);
  expect((await eventsOf('ph-anon')).map((e) => e.name)).toEqual(['viewed']);
  const person = (await read('/persons/ph-anon')).data;
  expect(person).toMatchObject({ distinctIds: ['ph-anon', 'ph-user'], properties: { a: 1 } });
  expect(JSON.stringify(await eventsOf('ph-anon'))).not.toContain(keys.ingest);
});

it('stores what analytics-node sends with a write-only key as its write key', async () => {
  const analytics = new Analytics({
    writeKey: keys.ingest,
    host: url,
    path: '/api/v1/pulse/segment/v1/batch',
    maxRetries: 0,
  });
  const failures: unknown[] = [];
  analytics.on('error', (error) => failures.push(error));
  analytics.track({ userId: 'seg-user', event: 'Bought', properties: { total: 3 } });
  await analytics.closeAndFlush();
  expect(failures).toEqual([]);
  expect(await eventsOf('seg-user')).toEqual([
    expect.objectContaining({ name: 'Bought', properties: expect.objectContaining({ total: 3 }) }),
  ]);
});

describe("keys refused in the libraries' own shapes", () => {
  const capture = (body: object) =>
    fetch(`${url}/api/v1/pulse/posthog/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, batch: [{ event: 'e', distinct_id: 'refused' }] }),
    });
  const track = (authorization?: string) =>
    fetch(`${url}/api/v1/pulse/segment/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ userId: 'refused', event: 'e' }),
    });
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;

  it('answers no key, an unknown key and a key without pulse:ingest with 401 and 403', async () => {
    const none = await capture({});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_api_key',
    });
    const unknown = await capture({ api_key: newApiKey() });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).detail).toMatch(/not valid/);
    const scope = await capture({ api_key: keys.read });
    expect(scope.status).toBe(403);
    expect((await scope.json()).detail).toMatch(/needs the scope pulse:ingest/);
    expect((await track()).status).toBe(401);
    expect((await track(basic(newApiKey()))).status).toBe(401);
    const segScope = await track(basic(keys.read));
    expect(segScope.status).toBe(403);
    expect(await segScope.json()).toMatchObject({ success: false, message: expect.any(String) });
    expect(await eventsOf('refused')).toEqual([]);
  });

  it('takes a key in the body only where the route says so', async () => {
    const res = await fetch(`${url}/api/v1/pulse/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', api_key: keys.ingest, token: keys.ingest }),
    });
    expect(res.status).toBe(401);
  });
});

it('lets a write-only key read nothing: every other operation of the platform refuses it', async () => {
  const document = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'libs', 'client', 'openapi.json'), 'utf8'),
  ) as Document;
  // Services off by default (experimental) answer as absent, to everyone: their API, and the
  // paths they serve outside /api (git's smart HTTP).
  const off = SERVICES.filter((s) => s.experimental).flatMap((s) => s.prefixes.map((p) => `${p}/`));
  const experimentalNonApi = SERVICES.some((s) => s.experimental);
  const answered: string[] = [];
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(item)) {
      const access = (op as { 'x-access'?: AccessDocument })['x-access'];
      // Skipped: public routes, the ingestion routes, and those needing no scope (`/passport/me`:
      // who the key is, which any key may learn).
      const scope = access?.scope;
      if (!access || access.rule === 'public' || scope === 'pulse:ingest' || scope === null)
        continue;
      if (off.some((prefix) => path.startsWith(prefix))) continue;
      if (experimentalNonApi && !path.startsWith('/api/')) continue;
      const body = method !== 'get' && method !== 'delete';
      const res = await gw.app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{[^}]+\}/g, 'x'),
        headers: {
          'x-api-key': keys.ingest,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        payload: body ? '{}' : undefined,
      });
      if (res.statusCode !== 403) answered.push(`${method} ${path} ${res.statusCode}`);
    }
  expect(answered).toEqual([]);
});

describe('CORS', () => {
  const preflight = (path: string, origin: string) =>
    gw.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

  it('lets any site send events, without credentials, and keeps CORS_ORIGINS elsewhere', async () => {
    for (const path of ['/api/v1/pulse/posthog/e/', '/api/v1/pulse/segment/v1/batch']) {
      const res = await preflight(path, 'https://shop.example');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const simple = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/posthog/e/',
      headers: { origin: 'https://shop.example', 'content-type': 'text/plain' },
      payload: JSON.stringify({ api_key: keys.ingest, event: 'cors', distinct_id: 'c' }),
    });
    expect(simple.statusCode).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBe('*');

    const elsewhere = await preflight('/api/v1/pulse/events', 'https://shop.example');
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const ours = await preflight('/api/v1/pulse/events', PLATFORM_ORIGIN);
    expect(ours.headers['access-control-allow-origin']).toBe(PLATFORM_ORIGIN);
  });
});
