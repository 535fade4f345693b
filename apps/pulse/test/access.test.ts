import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import { pulse } from '../src/index';

const svc = useService(() => serviceUnderTest(pulse, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, pulse.prefix, identity);

describe('pulse with authentication on', () => {
  it('lets a pulse:ingest key send events and nothing else', async () => {
    const ingest = as(keyCaller(['pulse:ingest']));
    expect((await ingest.post('/events', { name: 'signup' })).status).toBe(201);
    expect((await ingest.post('/events/batch', { events: [{ name: 'a' }] })).status).toBe(201);
    const read = await ingest.get('/events');
    expect(read.status).toBe(403);
    expect(read.body.error).toEqual({
      code: 'FORBIDDEN',
      message: 'key:key-pulse:ingest may not read pulse.event: it needs the scope pulse:read',
    });
    expect((await ingest.get('/reports/top-events')).status).toBe(403);
  });

  it('lets viewers read and never write, and anonymous callers do neither', async () => {
    const viewer = as(CALLERS.viewer);
    expect((await viewer.get('/events')).status).toBe(200);
    const write = await viewer.post('/events', { name: 'x' });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toMatch(/needs the role member/);
    expect((await as(undefined).get('/events')).status).toBe(401);
    expect((await as(CALLERS.stranger).post('/events', { name: 'y' })).status).toBe(201);
  });

  it('refuses a key whose scopes are of another service, even with a member role', async () => {
    const res = await as(keyCaller(['catalog:write'])).post('/events', { name: 'z' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/needs the scope pulse:ingest/);
    expect((await as(keyCaller(['*:read'])).get('/events')).status).toBe(200);
    expect((await as(keyCaller(['pulse:write'])).post('/events', { name: 'w' })).status).toBe(201);
  });
});
