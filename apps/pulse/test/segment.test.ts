import { Analytics } from '@segment/analytics-node';
import { listen, serviceUnderTest, useService } from '@platform/testing';
import { pulse } from '../src/index';

// @segment/analytics-node, unmodified, against pulse's Segment-compatible routes (authentication
// off here; the write keys are the gateway tests').

const svc = useService(() => serviceUnderTest(pulse, { jobs: false }));
const PREFIX = '/api/v1/pulse/segment/v1';

type Stored = {
  id: string;
  name: string;
  userId: string;
  sessionId: string | null;
  properties: Record<string, unknown>;
  timestamp: string;
};
const events = async () =>
  (await svc.app.inject({ url: '/api/v1/pulse/events?limit=1000' })).json().data as Stored[];
const person = async (id: string) =>
  (await svc.app.inject({ url: `/api/v1/pulse/persons/${id}` })).json();
const send = (path: string, payload: unknown) =>
  svc.app.inject({ method: 'POST', url: `${PREFIX}${path}`, payload: payload as object });

it('takes every method of analytics-node, mapped as PostHog maps them, and merges persons', async () => {
  const url = await listen(svc.app);
  const analytics = new Analytics({
    writeKey: 'seg_write_key',
    // analytics-node resolves `path` against `host`: the whole path goes in `path`.
    host: url,
    path: `${PREFIX}/batch`,
    maxRetries: 0,
  });
  const failures: unknown[] = [];
  analytics.on('error', (error) => failures.push(error));
  const context = {
    page: {
      url: 'https://shop.example/p?utm_source=news',
      path: '/p',
      referrer: 'https://ref.example/',
    },
    campaign: { source: 'news', medium: 'email', name: 'spring' },
    userAgent: 'Mozilla/5.0',
  };
  analytics.page({ anonymousId: 'anon-9', name: 'Pricing', properties: { plan: 'free' }, context });
  analytics.track({
    anonymousId: 'anon-9',
    event: 'Clicked Buy',
    properties: { sku: 'A1' },
    context,
  });
  analytics.identify({
    userId: 'user-9',
    anonymousId: 'anon-9',
    traits: { email: 'z@example.com' },
  });
  analytics.screen({ userId: 'user-9', name: 'Home' });
  analytics.group({ userId: 'user-9', groupId: 'acme', traits: { size: 10 } });
  analytics.alias({ userId: 'user-9', previousId: 'old-9' });
  await analytics.closeAndFlush();
  expect(failures).toEqual([]);

  const stored = await events();
  const byName = Object.fromEntries(stored.map((e) => [e.name, e]));
  expect(Object.keys(byName).sort()).toEqual(
    ['$create_alias', '$groupidentify', '$identify', '$pageview', '$screen', 'Clicked Buy'].sort(),
  );
  expect(byName.$pageview).toMatchObject({
    userId: 'anon-9',
    id: expect.stringMatching(/^node-next-/),
    properties: expect.objectContaining({
      plan: 'free',
      name: 'Pricing',
      $current_url: 'https://shop.example/p?utm_source=news',
      $pathname: '/p',
      $referrer: 'https://ref.example/',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
      $raw_user_agent: 'Mozilla/5.0',
      $lib: '@segment/analytics-node',
    }),
  });
  expect(byName['Clicked Buy'].properties).toMatchObject({ sku: 'A1', utm_source: 'news' });
  expect(byName.$identify).toMatchObject({
    userId: 'user-9',
    properties: expect.objectContaining({
      $set: { email: 'z@example.com' },
      $anon_distinct_id: 'anon-9',
    }),
  });
  expect(byName.$screen.properties).toMatchObject({ $screen_name: 'Home' });
  expect(byName.$groupidentify.properties).toMatchObject({
    $group_key: 'acme',
    $group_set: { size: 10 },
  });
  expect(byName.$create_alias.properties).toMatchObject({ alias: 'old-9', distinct_id: 'user-9' });
  expect(JSON.stringify(stored)).not.toContain('seg_write_key');

  const merged = await Promise.all(['anon-9', 'user-9', 'old-9'].map(person));
  expect(new Set(merged.map((m) => m.data.id)).size).toBe(1);
  expect(merged[0].data).toMatchObject({
    distinctIds: ['anon-9', 'old-9', 'user-9'],
    identified: true,
    properties: { email: 'z@example.com' },
  });
});

it('corrects the sender clock by sentAt, and stores a retried messageId once', async () => {
  const message = {
    type: 'track',
    event: 'e',
    userId: 'u',
    messageId: 'ajs-next-1700000000000-abc/def+ghi',
    timestamp: '2026-01-01T00:00:00.000Z',
  };
  const sentAt = new Date(Date.now() + 3600_000).toISOString(); // an hour fast
  expect((await send('/batch', { batch: [message], sentAt })).json()).toEqual({ success: true });
  expect((await send('/batch', { batch: [message], sentAt })).statusCode).toBe(200);
  const [stored, ...rest] = await events();
  expect(rest).toEqual([]);
  expect(stored.id).toMatch(/^h_[A-Za-z0-9_-]{40}$/); // not an id the platform takes: its digest
  const moved = Date.parse(stored.timestamp);
  expect(Math.abs(moved - Date.parse('2025-12-31T23:00:00.000Z'))).toBeLessThan(10_000);
});

it.each([
  ['/track', { event: 'e' }, /userId or anonymousId is required/],
  ['/track', { userId: 'u' }, /message.event is required/],
  ['/alias', { userId: 'u' }, /message.previousId is required/],
  ['/group', { userId: 'u' }, /message.groupId is required/],
  ['/batch', { batch: [{ type: 'nope', userId: 'u' }] }, /batch\[0\].type must be one of/],
  ['/batch', { batch: 'x' }, /batch must be/],
  ['/track', { userId: 'u', event: 'e', timestamp: 'later' }, /message.timestamp is not a time/],
])("answers %s %j with a 400 in Segment's shape, storing nothing", async (path, body, message) => {
  const res = await send(path, body);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({
    success: false,
    code: 'invalid_request',
    message: expect.stringMatching(message),
  });
  expect(await events()).toEqual([]);
});
