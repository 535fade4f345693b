import type { Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import { ledger } from '../src/index';

// Issue 31: the audit trail is append-only and truthful, its configuration and reading the admins'.

const svc = useService(
  () =>
    serviceUnderTest(ledger, {
      env: { ...AUTH_ENV, LEDGER_RETENTION_INTERVAL_MS: '0' },
      jobs: false,
    }),
  { scope: 'all' },
);

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, ledger.prefix, identity);
const admin = {
  get: (url: string) => as(CALLERS.admin).get(url),
  post: (url: string, body?: object) => as(CALLERS.admin).post(url, body),
};
const WORKFLOWS: Identity = { kind: 'service', name: 'stage', user: 'owner@example.com' };

describe('audit events', () => {
  it("record the caller and now, never a client's backdated event in someone else's name", async () => {
    const res = await as(CALLERS.stranger).post('/events', {
      action: 'key.revoked',
      actor: 'root@example.com',
      timestamp: '2020-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    const event = res.body.data;
    expect(event.actor).toBe('stranger@example.com');
    expect(Date.now() - Date.parse(event.timestamp)).toBeLessThan(60_000);
    expect(event.details).toEqual({
      claimed: { actor: 'root@example.com', timestamp: '2020-01-01T00:00:00Z' },
    });
    const stored = await admin.get(`/events/${event.id}`);
    expect(stored.body.data.actor).toBe('stranger@example.com');
  });

  it("keep a platform service's actor and time: it records what a person did", async () => {
    const when = new Date(Date.now() - 60_000).toISOString();
    const res = await as(WORKFLOWS).post('/events', {
      action: 'run.finished',
      actor: 'owner@example.com',
      timestamp: when,
    });
    expect(res.body.data).toMatchObject({
      actor: 'owner@example.com',
      timestamp: when,
      details: {},
    });
    const unnamed = await as(WORKFLOWS).post('/events', { action: 'run.started' });
    expect(unnamed.body.data.actor).toBe('owner@example.com');
  });

  it('are read by admins only, and never written by viewers', async () => {
    for (const who of [CALLERS.owner, CALLERS.viewer, keyCaller(['*:read'])]) {
      const res = await as(who).get('/events');
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(
        /may not read ledger.event: it needs the (role|scope) admin/,
      );
    }
    expect((await as(CALLERS.viewer).post('/events', { action: 'x' })).status).toBe(403);
    expect((await as(undefined).get('/events')).status).toBe(401);
    expect((await admin.get('/events')).status).toBe(200);
    expect((await as(keyCaller(['admin'], { role: 'admin' })).get('/events/verify')).status).toBe(
      200,
    );
  });
});

describe('retention policies', () => {
  it('cannot be made or applied by anyone but an admin: the trail stays', async () => {
    const made = await admin.post('/events', { action: 'keep.me' });
    const policy = { name: 'wipe', retentionDays: 0, scope: 'all', action: 'delete' };
    const refused = await as(CALLERS.stranger).post('/policies', policy);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'stranger@example.com may not create ledger.policy: it needs the role admin',
    );
    const own = await admin.post('/policies', { ...policy, retentionDays: 3650 });
    expect(own.status).toBe(201);
    const apply = await as(CALLERS.stranger).post(`/policies/${own.body.data.id}/apply`);
    expect(apply.status).toBe(403);
    expect((await as(CALLERS.stranger).del(`/policies/${own.body.data.id}`)).status).toBe(403);
    expect((await admin.get('/policies')).body.data.map((p: { name: string }) => p.name)).toEqual([
      'wipe',
    ]);
    expect((await admin.get(`/events/${made.body.data.id}`)).status).toBe(200);
    // A key of an admin needs the scope admin for it.
    const key = keyCaller(['*'], { role: 'admin' });
    expect((await as(key).get('/policies')).body.error.message).toMatch(/needs the scope admin/);
  });
});
