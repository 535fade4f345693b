import { createHmac } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import type { Identity } from '@platform/core';
import { sql } from '@platform/db';
import {
  AUTH_ENV,
  CALLERS,
  eventually,
  identityHeaders,
  jsonApiAs,
  serviceUnderTest,
  type Json,
  type ServiceUnderTest,
} from '@platform/testing';
import { communication } from '../src/index';
import { FAST_ENV, smtpPeer } from './helpers';

// Issue 41: the inbox channel and its API (authentication on), provider events and suppressions.
const EVENTS_SECRET = 'events-secret-0123456789';
const { admin, owner, stranger, viewer } = CALLERS;
const SERVICE = { kind: 'service', name: 'stage' } as const;

let svc: ServiceUnderTest;
const as = (identity: Identity) => jsonApiAs(svc.app, communication.prefix, identity);

beforeAll(async () => {
  svc = await serviceUnderTest(communication, {
    env: { ...FAST_ENV, ...AUTH_ENV, COMMUNICATION_EVENTS_SECRET: EVENTS_SECRET },
    jobs: { pollMs: 20 },
  });
  await as(admin).post('/channels', { name: 'bell', provider: 'inbox' });
  await as(admin).post('/apps/ops/channels', { channelId: 'bell' });
});
afterAll(() => svc.close());

const deliver = async (body: object) => {
  const res = await as(SERVICE).post('/apps/ops/send', body);
  expect(res.status).toBe(202);
  const id = res.body.data.delivery.id;
  return eventually(async () => {
    const got = await as(admin).get(`/apps/ops/deliveries/${id}`);
    if (got.body.data.status === 'accepted') throw new Error('still accepted');
    return got.body.data;
  });
};

it("fills a person's inbox, which they alone read and mark", async () => {
  for (const n of [1, 2])
    await deliver({
      channelId: 'bell',
      recipient: 'Owner@example.com',
      subject: `Deploy ${n}`,
      text: `Deployed ${n}`,
    });
  const mine = await as(owner).get('/inbox');
  expect(mine.body.data.map((m: { subject: string }) => m.subject)).toEqual([
    'Deploy 2',
    'Deploy 1',
  ]);
  expect((await as(owner).get('/inbox/count')).body.data).toEqual({ unread: 2 });
  expect((await as(stranger).get('/inbox')).body.data).toEqual([]);
  expect((await as(stranger).get('/inbox?recipient=owner@example.com')).status).toBe(403);
  expect((await as(admin).get('/inbox?recipient=owner@example.com')).body.data).toHaveLength(2);
  // Viewers read their own too.
  expect((await as(viewer).get('/inbox/count')).body.data).toEqual({ unread: 0 });

  const [latest] = mine.body.data;
  expect((await as(stranger).patch(`/inbox/${latest.id}`, { read: true })).status).toBe(404);
  const read = await as(owner).patch(`/inbox/${latest.id}`, { read: true });
  expect(read.body.data).toMatchObject({ read: true, archived: false, readAt: expect.any(String) });
  expect((await as(owner).get('/inbox/count')).body.data).toEqual({ unread: 1 });
  await as(owner).patch(`/inbox/${latest.id}`, { archived: true });
  expect((await as(owner).get('/inbox')).body.data).toHaveLength(1);
  expect((await as(owner).get('/inbox?status=archived')).body.data[0].id).toBe(latest.id);
  expect((await as(owner).patch(`/inbox/${latest.id}`, {})).status).toBe(400);
});

interface StreamEvent {
  event: string;
  id?: string;
  data: { id?: string; unread?: number };
}

/** GET /inbox/stream over HTTP as `identity`: its status and its events as they come. */
async function openStream(base: string, identity: Identity) {
  const headers = await identityHeaders(identity);
  const events: StreamEvent[] = [];
  const res = await new Promise<IncomingMessage>(
    (resolve, reject) =>
    get(`${base}${communication.prefix}/inbox/stream`, { headers, agent: false }, resolve).on('error', reject), // prettier-ignore
  );
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
      const event: StreamEvent = { event: 'message', data: {} };
      for (const line of buffer.slice(0, at).split('\n')) {
        const split = line.indexOf(': ');
        const [key, value] = [line.slice(0, split), line.slice(split + 2)];
        if (key === 'event') event.event = value;
        if (key === 'id') event.id = value;
        if (key === 'data') event.data = JSON.parse(value);
      }
      events.push(event);
      buffer = buffer.slice(at + 2);
    }
  });
  const status = res.statusCode;
  const body = status === 200 ? undefined : await new Promise<Json>((resolve) => res.on('end', () => resolve(JSON.parse(buffer)))); // prettier-ignore
  return { status, body, events, close: () => res.destroy() };
}

it('streams live through one poller: a message committed late is still sent; five streams a person', async () => {
  const base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const first = await openStream(base, viewer);
  expect(first.status).toBe(200);
  await eventually(() => expect(first.events[0]).toEqual({ event: 'open', data: { unread: 0 } }));
  // seq is taken at insert: a message may commit after one with a higher seq was streamed.
  const { rows } = await sql<{ seq: string }>`select nextval(pg_get_serial_sequence('communication.inbox_messages', 'seq')) as seq`.execute(svc.db.kysely); // prettier-ignore
  const insert = (id: string, seq: number) =>
    sql`insert into communication.inbox_messages (id, recipient, app_id, delivery_id, text, seq)
      values (${id}, 'viewer@example.com', 'ops', ${id}, 'late', ${seq})`.execute(svc.db.kysely);
  const sent = () => first.events.filter((e) => e.event === 'message').map((e) => e.data.id);
  await insert('msg_later', Number(rows[0].seq) + 50);
  await eventually(() => expect(sent()).toEqual(['msg_later']));
  await insert('msg_earlier', Number(rows[0].seq) + 10);
  await eventually(() => expect(sent()).toEqual(['msg_later', 'msg_earlier']));
  await eventually(() => expect(first.events.at(-1)).toEqual({ event: 'count', data: { unread: 2 } })); // prettier-ignore

  const more = [];
  for (let i = 0; i < 4; i++) more.push(await openStream(base, viewer));
  expect(more.map((m) => m.status)).toEqual([200, 200, 200, 200]);
  const sixth = await openStream(base, viewer);
  expect(sixth.status).toBe(429);
  expect(sixth.body.error.message).toContain('5 live inbox streams open already');
  const other = await openStream(base, stranger);
  expect(other.status).toBe(200);
  first.close();
  const again = await eventually(async () => {
    const next = await openStream(base, viewer);
    expect(next.status).toBe(200);
    return next;
  });
  for (const stream of [...more, again, other]) stream.close();
});

it('lets a person set only their own preferences', async () => {
  const off = [{ category: 'news', channel: 'inbox', enabled: false }];
  expect((await as(viewer).put('/preferences', { preferences: off })).body.data).toMatchObject({
    recipient: 'viewer@example.com',
    preferences: [{ category: 'news', channel: 'inbox', enabled: false }],
  });
  const other = await as(stranger).put('/preferences', {
    recipient: 'viewer@example.com',
    preferences: off,
  });
  expect(other.status).toBe(403);
  expect(other.body.error.message).toContain(
    'stranger@example.com may not act for viewer@example.com',
  );
  const skipped = await as(SERVICE).post('/apps/ops/send', {
    channelId: 'bell',
    recipient: 'viewer@example.com',
    text: 'x',
    category: 'news',
  });
  expect(skipped.body.data.delivery.status).toBe('skipped');
});

describe('provider events', () => {
  const post = (body: string, headers: Record<string, string>) =>
    svc.app.inject({
      method: 'POST',
      url: '/api/v1/communication/provider-events',
      payload: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const signed = (event: object, secret = EVENTS_SECRET) => {
    const body = JSON.stringify(event);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    return post(body, {
      'x-platform-timestamp': timestamp,
      'x-platform-signature': `sha256=${mac}`,
    });
  };

  it('marks a hard bounce, suppresses the address until an admin removes it', async () => {
    // The peer is closed after the test (helpers' afterEach): the channel is this test's.
    const smtp = await smtpPeer();
    const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
    await as(admin).post('/channels', { name: 'mail', provider: 'smtp', config });
    await as(admin).post('/apps/ops/channels', { channelId: 'mail' });
    const mail = { channelId: 'mail', to: 'gone@example.com', subject: 'Hi', text: 'x' };
    const sent = await deliver(mail);
    expect(sent.status).toBe('sent');
    const event = {
      type: 'bounce',
      messageId: sent.providerMessageId,
      address: 'gone@example.com',
      hard: true,
    };

    expect((await post(JSON.stringify(event), {})).statusCode).toBe(401);
    expect((await signed(event, 'another-secret-0123456789')).statusCode).toBe(401);
    expect((await signed({ ...event, type: 'opened' })).json().error.message).toBe(
      'type must be one of: bounce, complaint, delivered',
    );
    expect((await signed({ ...event, messageId: '<nope@x>' })).statusCode).toBe(404);
    const res = await signed(event);
    expect(res.json().data).toEqual({ deliveryId: sent.id, status: 'bounced', suppressed: true });

    const refused = await as(SERVICE).post('/apps/ops/send', mail);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('gone@example.com is suppressed (hard bounce)');
    expect((await as(owner).get('/suppressions')).status).toBe(403);
    const listed = await as(admin).get('/suppressions');
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        address: 'gone@example.com',
        reason: 'hard bounce',
        deliveryId: sent.id,
      }),
    ]);
    expect((await as(admin).del('/suppressions/gone@example.com')).status).toBe(200);
    expect((await deliver(mail)).status).toBe('sent');
  });
});
