import { gzipSync } from 'node:zlib';
import LZString from 'lz-string';
import { PostHog } from 'posthog-node';
import { listen, serviceUnderTest, useService } from '@platform/testing';
import { pulse } from '../src/index';

// posthog-node, unmodified, against pulse's PostHog-compatible routes (authentication off here:
// the keys are the gateway tests'); the other wire forms posthog-js uses, made by the libraries
// that make them (node:zlib, lz-string).

const svc = useService(() => serviceUnderTest(pulse, { jobs: false }));
const HOST = '/api/v1/pulse/posthog';

const events = async (query = '') =>
  (await svc.app.inject({ url: `/api/v1/pulse/events?limit=1000${query}` })).json().data as {
    id: string;
    name: string;
    userId: string;
    sessionId: string | null;
    properties: Record<string, unknown>;
    timestamp: string;
  }[];
const person = (id: string) => svc.app.inject({ url: `/api/v1/pulse/persons/${id}` });
const send = (path: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  svc.app.inject({
    method: 'POST',
    url: `${HOST}${path}`,
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });

async function client(options: { disableCompression?: boolean } = {}) {
  const url = await listen(svc.app);
  return new PostHog('phc_test_key', {
    host: `${url}${HOST}`,
    flushAt: 100,
    flushInterval: 0,
    fetchRetryCount: 0,
    ...options,
  });
}

describe('posthog-node', () => {
  it.each([false, true])(
    'captures, identifies and aliases (compression off: %s), and the events arrive as sent',
    async (disableCompression) => {
      const ph = await client({ disableCompression });
      ph.capture({
        distinctId: 'anon-1',
        event: '$pageview',
        properties: { $current_url: 'https://shop.example/a', $session_id: 's-1', plan: 'free' },
        uuid: '0190f5c4-5d0e-7c3a-9f6e-2a1b3c4d5e6f',
      });
      ph.identify({
        distinctId: 'user-1',
        properties: {
          $set: { email: 'a@example.com' },
          $set_once: { first: 'x' },
          $anon_distinct_id: 'anon-1',
        },
      });
      ph.capture({ distinctId: 'user-1', event: 'signup', properties: { $set: { plan: 'pro' } } });
      ph.alias({ distinctId: 'user-1', alias: 'legacy-7' });
      await ph.shutdown();

      const stored = await events();
      expect(stored.map((e) => e.name).sort()).toEqual(
        ['$create_alias', '$identify', '$pageview', 'signup'].sort(),
      );
      const view = stored.find((e) => e.name === '$pageview')!;
      expect(view).toMatchObject({
        id: '0190f5c4-5d0e-7c3a-9f6e-2a1b3c4d5e6f',
        userId: 'anon-1',
        sessionId: 's-1',
        properties: expect.objectContaining({
          $current_url: 'https://shop.example/a',
          plan: 'free',
          $lib: 'posthog-node',
        }),
      });
      expect(JSON.stringify(stored)).not.toContain('phc_test_key');

      // The anonymous id, the identified one and the alias are one person.
      const answers = await Promise.all(['anon-1', 'user-1', 'legacy-7'].map(person));
      const bodies = answers.map((res) => res.json().data);
      expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
      expect(bodies[0]).toMatchObject({
        distinctIds: ['anon-1', 'legacy-7', 'user-1'],
        identified: true,
        properties: { email: 'a@example.com', first: 'x', plan: 'pro' },
      });
    },
  );

  it('stores a retried batch once (same uuids)', async () => {
    const body = JSON.stringify({
      api_key: 'k',
      batch: [
        { event: 'a', distinct_id: 'd', uuid: 'u-1', properties: {} },
        { event: 'b', distinct_id: 'd', uuid: 'u-2', properties: {} },
      ],
    });
    expect((await send('/batch/', body)).json()).toEqual({ status: 1 });
    expect((await send('/batch/', body)).statusCode).toBe(200);
    expect((await events()).map((e) => e.id).sort()).toEqual(['u-1', 'u-2']);
  });
});

describe('the wire forms of posthog-js', () => {
  const batch = (event: string) => [
    {
      event,
      properties: { distinct_id: 'js-1', token: 'phc_secret', $browser: 'Chrome' },
      uuid: `id-${event}`,
      timestamp: '2026-01-01T00:00:00.000Z',
    },
  ];

  it('takes gzip as text/plain, base64 and lz64 forms, and plain JSON', async () => {
    const json = (e: string) =>
      // The sender's clock runs an hour fast: sent_at says so, and its events are moved back.
      JSON.stringify({
        api_key: 'k',
        batch: batch(e),
        sent_at: new Date(Date.now() + 3600_000).toISOString(),
      });
    expect(
      (await send('/e/', gzipSync(json('gz')), { 'content-type': 'text/plain' })).statusCode,
    ).toBe(200);
    const form = (data: string) => `data=${encodeURIComponent(data)}`;
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (
        await send(
          '/e/?compression=base64',
          form(Buffer.from(json('b64')).toString('base64')),
          formType,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await send(
          '/i/v0/e/?compression=lz64',
          form(LZString.compressToBase64(json('lz'))),
          formType,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await send('/capture/', JSON.stringify({ api_key: 'k', ...batch('one')[0] }))).statusCode,
    ).toBe(200);
    const stored = await events();
    expect(stored.map((e) => e.name).sort()).toEqual(['b64', 'gz', 'lz', 'one']);
    for (const e of stored) {
      expect(e.properties).toEqual({ distinct_id: 'js-1', $browser: 'Chrome' });
      expect(e.userId).toBe('js-1');
    }
    // Without sent_at, the timestamp as sent; with it, moved by the sender's clock skew.
    expect(stored.find((e) => e.name === 'one')!.timestamp).toBe('2026-01-01T00:00:00.000Z');
    const moved = Date.parse(stored.find((e) => e.name === 'gz')!.timestamp);
    expect(Math.abs(moved - Date.parse('2025-12-31T23:00:00.000Z'))).toBeLessThan(10_000);
  });

  it('stores NULs and lone surrogates as U+FFFD, never failing on them', async () => {
    const body =
      '{"event":"x\\u0000y","distinct_id":"d","properties":{"bad":"\\ud800","k\\u0000":1}}';
    expect((await send('/capture/', body)).statusCode).toBe(200);
    const [e] = await events();
    expect(e.name).toBe('x\ufffdy');
    expect(e.properties).toEqual({ bad: '\ufffd', 'k\ufffd': 1 });
  });
});

describe('bad input', () => {
  it.each([
    ['not gzip', Buffer.from([0x1f, 0x8b, 1, 2, 3]), 400, /not valid gzip/],
    ['not JSON', 'nope{', 400, /not valid JSON/],
    ['no event name', '{"distinct_id":"d"}', 400, /event.event is required/],
    ['no distinct id', '{"batch":[{"event":"e"}]}', 400, /batch\[0\]\.distinct_id is required/],
    [
      'a bad timestamp',
      '{"event":"e","distinct_id":"d","timestamp":"soon"}',
      400,
      /event.timestamp is not a time/,
    ],
    ['a bad form', 'x=1', 400, /no data field/],
    [
      'properties nested 20,000 deep',
      `{"event":"e","distinct_id":"d","properties":{"a":${'['.repeat(20000)}${']'.repeat(20000)}}}`,
      400,
      /nests deeper than 256 levels/,
    ],
  ])(
    "answers %s with a 4xx in PostHog's shape, storing nothing",
    async (what, body, status, detail) => {
      const headers: Record<string, string> =
        what === 'a bad form' ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
      const res = await send('/batch/', body, headers);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({
        type: 'validation_error',
        code: 'invalid_payload',
        detail: expect.stringMatching(detail),
        attr: null,
      });
      expect(await events()).toEqual([]);
    },
  );

  it('refuses more than 1000 events with a 413 and an unknown path with a 404, in its shape', async () => {
    const many = Array.from({ length: 1001 }, () => ({ event: 'e', distinct_id: 'd' }));
    const res = await send('/batch/', JSON.stringify({ batch: many }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    const lost = await send('/nowhere/', '{}');
    expect(lost.statusCode).toBe(404);
    expect(lost.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
  });

  it('answers posthog-js at start-up: config and flags, empty', async () => {
    const config = await svc.app.inject({ url: `${HOST}/array/phc_x/config` });
    expect(config.json()).toMatchObject({
      supportedCompression: ['gzip', 'gzip-js'],
      hasFeatureFlags: false,
    });
    const flags = await send(
      '/flags/?v=2&config=true',
      JSON.stringify({ token: 'x', distinct_id: 'd' }),
    );
    expect(flags.json()).toMatchObject({ flags: {}, featureFlags: {} });
  });
});
