import { sql } from '@platform/db';
import { serviceUnderTest, useService } from '@platform/testing';
import { pulse } from '../src/index';

const svc = useService(() => serviceUnderTest(pulse));

const post = (url: string, payload: unknown) =>
  svc.app.inject({ method: 'POST', url: `/api/v1/pulse${url}`, payload: payload as object });
const get = (url: string) => svc.app.inject({ method: 'GET', url: `/api/v1/pulse${url}` });

describe('POST /events', () => {
  it('stores an event and returns it with an 8-character id and an ISO timestamp', async () => {
    const res = await post('/events', {
      name: 'page_view',
      properties: { path: '/home' },
      userId: 'u1',
      sessionId: 's1',
    });
    expect(res.statusCode).toBe(201);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'page_view',
      properties: { path: '/home' },
      userId: 'u1',
      sessionId: 's1',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const list = (await get('/events')).json();
    expect(list.data).toEqual([data]);
  });

  it('rejects an event without a name, saying the event name is required, and stores nothing', async () => {
    const res = await post('/events', { userId: 'u1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/event name is required/i) },
    });
    expect((await get('/events')).json().data).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'name must not be empty'],
    [{ name: 5 }, 'name must be a string'],
    [{ name: 'x', properties: [1] }, 'properties must be an object'],
    [{ name: 'x', userId: 'u'.repeat(201) }, 'userId must be at most 200 characters long'],
    [{ name: 'x', timestamp: 'yesterday' }, 'timestamp has an invalid format (expected date-time)'],
    [{ name: 'x', id: 'has space' }, 'id has an invalid format'],
  ])('rejects %j with a message naming the field', async (body, message) => {
    const res = await post('/events', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message });
  });

  it('rejects a malformed JSON body and a body that is not JSON', async () => {
    const malformed = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('BAD_REQUEST');
    const text = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // Nested without end (it crashed validation with a 500): refused, nothing stored.
    const deep = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"x","properties":{"a":${'['.repeat(20000)}${']'.repeat(20000)}}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: 'The JSON body nests deeper than 256 levels',
    });
    expect((await get('/events')).json().data).toEqual([]);
  });

  it('does not count an event twice when its client id is sent again', async () => {
    const first = await post('/events', { id: 'evt-1', name: 'signup', userId: 'a' });
    expect(first.statusCode).toBe(201);
    const again = await post('/events', { id: 'evt-1', name: 'signup-changed', userId: 'b' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect((await get('/events')).json().data).toHaveLength(1);
  });

  it('keeps a client timestamp', async () => {
    const res = await post('/events', { name: 'old', timestamp: '2025-01-02T03:04:05.678Z' });
    expect(res.json().data.timestamp).toBe('2025-01-02T03:04:05.678Z');
  });
});

describe('POST /events/batch', () => {
  const events = (n: number, extra: object = {}) =>
    Array.from({ length: n }, (_, i) => ({ name: `e${i % 3}`, userId: `u${i}`, ...extra }));

  it('ingests every event of a batch', async () => {
    const res = await post('/events/batch', { events: events(25) });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({ ingested: 25, duplicates: 0 });
    expect((await get('/events?limit=1000')).json().data).toHaveLength(25);
  });

  it('is safe to retry: events with ids already stored are counted as duplicates', async () => {
    const batch = events(10).map((e, i) => ({ ...e, id: `b-${i}` }));
    await post('/events/batch', { events: batch.slice(0, 4) });
    const retry = await post('/events/batch', { events: batch });
    expect(retry.json().data).toEqual({ ingested: 6, duplicates: 4 });
    expect((await get('/events?limit=1000')).json().data).toHaveLength(10);
  });

  it('rejects the whole batch when one item is invalid, naming its index and field', async () => {
    const batch = events(5);
    (batch[3] as { name?: string }).name = undefined;
    const res = await post('/events/batch', { events: batch });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Event name is required (events[3].name)');
    expect((await get('/events')).json().data).toEqual([]);
  });

  it('rejects a batch of more than 1000 events', async () => {
    const res = await post('/events/batch', { events: events(1001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('events must have at most 1000 items');
    expect((await get('/events')).json().data).toEqual([]);
  });

  it('rejects a batch over 1 MiB with BAD_REQUEST', async () => {
    const res = await post('/events/batch', {
      events: events(10, { properties: { blob: 'x'.repeat(110_000) } }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('1 MiB'),
    });
    expect((await get('/events')).json().data).toEqual([]);
  });

  it('rejects a batch without events', async () => {
    expect((await post('/events/batch', {})).json().error.message).toBe('events is required');
    expect((await post('/events/batch', { events: [] })).json().error.message).toBe(
      'events must have at least 1 item',
    );
  });
});

describe('GET /events', () => {
  beforeEach(async () => {
    await post('/events/batch', {
      events: [
        {
          id: 'a',
          name: 'view',
          userId: 'u1',
          sessionId: 's1',
          timestamp: '2026-01-01T10:00:00.000Z',
        },
        {
          id: 'b',
          name: 'click',
          userId: 'u1',
          sessionId: 's2',
          timestamp: '2026-01-02T10:00:00.000Z',
        },
        {
          id: 'c',
          name: 'view',
          userId: 'u2',
          sessionId: 's2',
          timestamp: '2026-01-03T10:00:00.000Z',
        },
        {
          id: 'd',
          name: 'view',
          userId: 'u2',
          sessionId: 's3',
          timestamp: '2026-01-04T10:00:00.000Z',
        },
      ],
    });
  });
  const ids = async (query: string) =>
    (await get(`/events${query}`)).json().data.map((e: { id: string }) => e.id);

  it('lists newest first', async () => {
    expect(await ids('')).toEqual(['d', 'c', 'b', 'a']);
  });

  it('filters by name, userId and sessionId', async () => {
    expect(await ids('?name=view')).toEqual(['d', 'c', 'a']);
    expect(await ids('?userId=u1')).toEqual(['b', 'a']);
    expect(await ids('?sessionId=s2')).toEqual(['c', 'b']);
    expect(await ids('?name=view&userId=u2&sessionId=s3')).toEqual(['d']);
  });

  it('filters by from and to, dates covering whole days', async () => {
    expect(await ids('?from=2026-01-02&to=2026-01-03')).toEqual(['c', 'b']);
    expect(await ids('?from=2026-01-02T10:00:00.001Z')).toEqual(['d', 'c']);
    expect(await ids('?to=2026-01-01T10:00:00Z')).toEqual(['a']);
  });

  it('pages with limit and offset', async () => {
    expect(await ids('?limit=2')).toEqual(['d', 'c']);
    expect(await ids('?limit=2&offset=2')).toEqual(['b', 'a']);
    expect(await ids('?offset=10')).toEqual([]);
  });

  it.each([
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=1001', 'limit must be at most 1000'],
    ['?limit=ten', 'limit must be an integer'],
    ['?offset=-1', 'offset must be at least 0'],
    ['?from=last-week', 'from has an invalid format'],
    ['?from=2026-02-30', 'from is not a valid date or timestamp: 2026-02-30'],
    ['?from=2026-01-03&to=2026-01-01', 'from must not be after to'],
  ])('rejects %s', async (query, message) => {
    const res = await get(`/events${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message });
  });

  it('gets one event by id, and answers NOT_FOUND for an unknown one', async () => {
    expect((await get('/events/b')).json().data.name).toBe('click');
    const missing = await get('/events/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'NOT_FOUND', message: 'Event not found: nope' });
  });
});

describe('GET /reports/top-events', () => {
  beforeEach(async () => {
    const at = (day: number) => `2026-03-0${day}T12:00:00.000Z`;
    await post('/events/batch', {
      events: [
        ...Array.from({ length: 5 }, () => ({ name: 'view', timestamp: at(1) })),
        ...Array.from({ length: 3 }, () => ({ name: 'click', timestamp: at(2) })),
        ...Array.from({ length: 3 }, () => ({ name: 'buy', timestamp: at(3) })),
        { name: 'view', timestamp: at(3) },
      ],
    });
  });

  it('counts events by name, highest first, ties by name', async () => {
    const res = await get('/reports/top-events');
    expect(res.json().data).toEqual([
      { name: 'view', count: 6 },
      { name: 'buy', count: 3 },
      { name: 'click', count: 3 },
    ]);
  });

  it('honours from, to and limit', async () => {
    expect((await get('/reports/top-events?from=2026-03-02')).json().data).toEqual([
      { name: 'buy', count: 3 },
      { name: 'click', count: 3 },
      { name: 'view', count: 1 },
    ]);
    expect((await get('/reports/top-events?to=2026-03-01&limit=1')).json().data).toEqual([
      { name: 'view', count: 5 },
    ]);
    expect((await get('/reports/top-events?limit=0')).statusCode).toBe(400);
  });

  it('counts only the events whose property has the value (as text), given both', async () => {
    const tagged = (name: string, service: unknown) => ({ name, properties: { service } });
    const events = ['checkout', 'checkout', 1].map((service) => tagged('view', service));
    await post('/events/batch', { events: [...events, tagged('buy', 'checkout')] });
    const top = (query: string) => get(`/reports/top-events?property=service${query}`);
    expect((await top('&value=checkout')).json().data).toEqual([
      { name: 'view', count: 2 },
      { name: 'buy', count: 1 },
    ]);
    expect((await top('&value=1')).json().data).toEqual([{ name: 'view', count: 1 }]);
    expect((await top('&value=Checkout')).json().data).toEqual([]);
    expect((await top('')).json().error.message).toMatch(/^property and value go together/);
    // Only `service` is indexed, so only it may be filtered by; and its filter uses the index.
    const other = await get('/reports/top-events?property=plan&value=pro');
    expect(other.statusCode).toBe(400);
    expect(other.json().error.message).toBe(
      'Only the property service can be counted by (it is indexed), not plan',
    );
    const plan = await svc.db
      .schema('pulse')
      .transaction()
      .execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql`explain select name from pulse.events where (properties ->> 'service') = 'x'
        and timestamp >= now() - interval '30 days'`.execute(trx);
      });
    expect(JSON.stringify(plan.rows)).toMatch(/Index.* using events_service_timestamp_idx/);
  });
});

describe('healthz', () => {
  it('answers with the service name and version', async () => {
    const res = await get('/healthz');
    expect(res.json()).toEqual({
      success: true,
      data: { name: 'pulse', version: pulse.version, status: 'ok' },
    });
  });
});
