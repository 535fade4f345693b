import { useService } from '@platform/testing';
import { GENESIS_HASH } from '../src/domain/chain';
import { ledgerUnderTest } from './helpers';

const svc = useService(ledgerUnderTest);

describe('POST /events', () => {
  it('records an event with an 8-character id, a timestamp and its place in the chain', async () => {
    const { status, body } = await svc.post('/events', {
      action: 'user.login',
      actor: 'ann',
      resource: 'session/1',
      metadata: { ip: '10.0.0.1' },
      service: 'passport',
      details: { method: 'password' },
    });
    expect(status).toBe(201);
    expect(body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
        action: 'user.login',
        actor: 'ann',
        resource: 'session/1',
        service: 'passport',
        metadata: { ip: '10.0.0.1' },
        details: { method: 'password' },
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        seq: 1,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        prevHash: GENESIS_HASH,
        anonymized: false,
      },
    });
    expect((await svc.get(`/events/${body.data.id}`)).body.data).toEqual(body.data);
  });

  it('defaults the optional fields', async () => {
    const { body } = await svc.post('/events', { action: 'deploy' });
    expect(body.data).toMatchObject({
      actor: null,
      resource: null,
      service: null,
      metadata: {},
      details: {},
    });
  });

  it('rejects an event without an action, saying the action field is required, and records nothing', async () => {
    const { status, body } = await svc.post('/events', { actor: 'ann' });
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: { code: 'BAD_REQUEST', message: 'Action field is required (action)' },
    });
    expect((await svc.get('/events')).body.data).toEqual([]);
  });

  it.each([
    [{ action: '' }, 'action must not be empty'],
    [{ action: 7 }, 'action must be a string'],
    [{ action: 'a', actor: 42 }, 'actor must be a string'],
    [{ action: 'a', metadata: 'x' }, 'metadata must be an object'],
    [{ action: 'a', details: [1] }, 'details must be an object'],
    [{ action: 'a', resource: 'r'.repeat(501) }, 'resource must be at most 500 characters long'],
    [{ action: 'a', timestamp: 'today' }, 'timestamp has an invalid format (expected date-time)'],
    [{ action: 'a', timestamp: '2999-01-01T00:00:00Z' }, 'timestamp must not be in the future'],
    [{ action: 'a\u0000b' }, 'Text must not contain the NUL character (\\u0000)'],
    [
      { action: 'a', metadata: { note: 'a\u0000b' } },
      'Text must not contain the NUL character (\\u0000)',
    ],
  ])('rejects %j with a clear message and records nothing', async (payload, message) => {
    const { status, body } = await svc.post('/events', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/events')).body.data).toEqual([]);
    expect((await svc.get('/events/verify')).body.data).toMatchObject({ valid: true, checked: 0 });
  });

  it('rejects a body that is not JSON', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/ledger/events',
      headers: { 'content-type': 'text/plain' },
      payload: 'action=x',
    });
    expect(res.statusCode).toBe(415);
  });

  it('keeps a timestamp sent by the client (when it happened); the chain keeps the order of arrival', async () => {
    const first = (
      await svc.post('/events', { action: 'late', timestamp: '2026-01-02T03:04:05.678Z' })
    ).body.data;
    const second = (
      await svc.post('/events', { action: 'early', timestamp: '2025-01-01T00:00:00Z' })
    ).body.data;
    expect(first.timestamp).toBe('2026-01-02T03:04:05.678Z');
    expect(second.timestamp).toBe('2025-01-01T00:00:00.000Z');
    expect(second.seq).toBe(first.seq + 1);
    expect(second.prevHash).toBe(first.hash);
  });

  it('offers no way to change or remove an event', async () => {
    const { id } = (await svc.post('/events', { action: 'a' })).body.data;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await svc.app.inject({ method, url: `/api/v1/ledger/events/${id}`, payload: {} });
      expect(res.statusCode).toBe(404);
    }
    expect((await svc.get(`/events/${id}`)).body.data.action).toBe('a');
  });

  it('keeps one linear chain under concurrent appends', async () => {
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => svc.post('/events', { action: `a${i}` })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const events = results.map((r) => r.body.data).sort((a, b) => a.seq - b.seq);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    events.forEach((event, i) =>
      expect(event.prevHash).toBe(i === 0 ? GENESIS_HASH : events[i - 1].hash),
    );
    expect((await svc.get('/events/verify')).body.data).toMatchObject({
      valid: true,
      checked: 120,
    });
  });

  it('fails only the bad event of a group appended together', async () => {
    const results = await Promise.all([
      svc.post('/events', { action: 'ok-1' }),
      svc.post('/events', { action: 'bad', metadata: { v: '\u0000' } }),
      svc.post('/events', { action: 'ok-2' }),
      svc.post('/events', { action: 'ok-3' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 400, 201, 201]);
    const stored = (await svc.get('/events')).body.data.map((e: { action: string }) => e.action);
    expect(stored.sort()).toEqual(['ok-1', 'ok-2', 'ok-3']);
    expect((await svc.get('/events/verify')).body.data).toMatchObject({ valid: true, checked: 3 });
  });
});

describe('GET /events', () => {
  beforeEach(async () => {
    const events = [
      {
        action: 'user.login',
        actor: 'ann',
        resource: 'r1',
        service: 'passport',
        timestamp: '2026-03-01T10:00:00Z',
      },
      {
        action: 'user.logout',
        actor: 'ann',
        resource: 'r1',
        service: 'passport',
        timestamp: '2026-03-02T10:00:00Z',
      },
      {
        action: 'user.login',
        actor: 'bob',
        resource: 'r2',
        service: 'passport',
        timestamp: '2026-03-03T10:00:00Z',
      },
      {
        action: 'invoice.paid',
        actor: 'bob',
        resource: 'inv-9',
        service: 'billing',
        timestamp: '2026-03-04T10:00:00Z',
      },
    ];
    for (const event of events) expect((await svc.post('/events', event)).status).toBe(201);
  });

  const actions = async (query: string) =>
    (await svc.get(`/events${query}`)).body.data.map(
      (e: { action: string; actor: string }) => `${e.action}:${e.actor}`,
    );

  it('lists newest first', async () => {
    expect(await actions('')).toEqual([
      'invoice.paid:bob',
      'user.login:bob',
      'user.logout:ann',
      'user.login:ann',
    ]);
  });

  it.each([
    ['?action=user.login', ['user.login:bob', 'user.login:ann']],
    ['?actor=ann', ['user.logout:ann', 'user.login:ann']],
    ['?resource=r1&action=user.logout', ['user.logout:ann']],
    ['?service=billing', ['invoice.paid:bob']],
    ['?from=2026-03-02&to=2026-03-03', ['user.login:bob', 'user.logout:ann']],
    ['?from=2026-03-03T10:00:00.001Z', ['invoice.paid:bob']],
    ['?to=2026-03-01', ['user.login:ann']],
    ['?limit=2&offset=1', ['user.login:bob', 'user.logout:ann']],
    ['?actor=nobody', []],
  ])('filters %s', async (query, expected) => {
    expect(await actions(query)).toEqual(expected);
  });

  it('lists the events after a seq in chain order, with the filters and limit', async () => {
    const all = (await svc.get('/events?limit=1000')).body.data as Array<{ seq: number }>;
    const seqs = all.map((e) => e.seq).sort((a, b) => a - b);
    const first = seqs.at(-4)! - 1;
    expect(await actions(`?afterSeq=${first}`)).toEqual([
      'user.login:ann',
      'user.logout:ann',
      'user.login:bob',
      'invoice.paid:bob',
    ]);
    const page = (await svc.get(`/events?afterSeq=${first}&action=user.login&limit=1`)).body.data;
    expect(page.map((e: { seq: number; actor: string }) => [e.seq, e.actor])).toEqual([[first + 1, 'ann']]); // prettier-ignore
    expect(await actions(`?afterSeq=${first + 1}&action=user.login`)).toEqual(['user.login:bob']);
    expect(await actions(`?afterSeq=${seqs.at(-1)}`)).toEqual([]);
    const bad = await svc.get('/events?afterSeq=-1');
    expect([bad.status, bad.body.error.message]).toEqual([400, 'afterSeq must be at least 0']);
  });

  it.each([
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=1001', 'limit must be at most 1000'],
    ['?offset=-1', 'offset must be at least 0'],
    ['?from=yesterday', 'from has an invalid format'],
    ['?from=2026-02-30', 'from is not a valid date or timestamp: 2026-02-30'],
    ['?from=2026-03-05&to=2026-03-01', 'from must not be after to'],
  ])('rejects %s', async (query, message) => {
    const { status, body } = await svc.get(`/events${query}`);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    const { status, body } = await svc.get('/events/nope1234');
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: 'NOT_FOUND', message: 'Audit event not found: nope1234' });
  });
});
