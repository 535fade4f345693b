import { ConfigError, standaloneConfig } from '@platform/core';
import { eventually, sleep } from '@platform/testing';
import { appendEvents } from '../src/domain/appender';
import { ledger } from '../src/index';
import { daysAgo, ledgerUnderTest, type Ledger } from './helpers';

let svc: Ledger;
afterEach(() => svc.close());

const verify = async () => (await svc.get('/events/verify')).body.data;
const actions = async () =>
  (await svc.get('/events?limit=1000')).body.data
    .map((e: { action: string }) => e.action)
    .reverse();
const record = async (action: string, age: number, extra: object = {}) => {
  const res = await svc.post('/events', {
    action,
    actor: 'ann',
    metadata: { k: 1 },
    details: { d: 2 },
    timestamp: daysAgo(age),
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data;
};

describe('retention policies', () => {
  // The periodic retention job off (as in queries.test.ts): it could apply a policy between a
  // test's own statements.
  beforeEach(async () => {
    svc = await ledgerUnderTest({ env: { LEDGER_RETENTION_INTERVAL_MS: '0' } });
  });

  it('creates, lists, gets by id or name, and deletes a policy', async () => {
    const created = await svc.post('/policies', {
      name: 'Logins',
      retentionDays: 30,
      scope: 'action:user.*',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'Logins',
      retentionDays: 30,
      scope: 'action:user.*',
      service: null,
      action: 'delete',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastAppliedAt: null,
      lastAffected: null,
    });
    const { id } = created.body.data;
    await svc.post('/policies', {
      name: 'billing',
      retentionDays: 400,
      service: 'billing',
      action: 'anonymize',
    });
    expect((await svc.get('/policies')).body.data.map((p: { name: string }) => p.name)).toEqual([
      'billing',
      'Logins',
    ]);
    expect((await svc.get('/policies?action=anonymize')).body.data).toHaveLength(1);
    expect((await svc.get('/policies?service=billing')).body.data[0]).toMatchObject({
      scope: 'all',
      service: 'billing',
    });
    expect((await svc.get(`/policies/${id}`)).body.data.name).toBe('Logins');
    expect((await svc.get('/policies/LOGINS')).body.data.id).toBe(id);
    expect((await svc.del('/policies/logins')).body.data.id).toBe(id);
    expect((await svc.get(`/policies/${id}`)).status).toBe(404);
    expect((await svc.del(`/policies/${id}`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: `Retention policy not found: ${id}`,
    });
  });

  it('answers 409 for a name taken case-insensitively', async () => {
    await svc.post('/policies', { name: 'Year', retentionDays: 365 });
    const { status, body } = await svc.post('/policies', { name: 'YEAR', retentionDays: 30 });
    expect(status).toBe(409);
    expect(body.error).toEqual({
      code: 'CONFLICT',
      message: 'A retention policy named YEAR exists already',
    });
    expect((await svc.get('/policies')).body.data).toHaveLength(1);
  });

  it.each([
    [{ retentionDays: 5 }, 'Policy name is required (name)'],
    [{ name: 'p' }, 'RetentionDays is required (retentionDays)'],
    [{ name: 'p', retentionDays: 0 }, 'retentionDays must be at least 1'],
    [{ name: 'p', retentionDays: 1.5 }, 'retentionDays must be an integer'],
    [{ name: 'p', retentionDays: '30' }, 'retentionDays must be an integer'],
    [{ name: 'p', retentionDays: 3, scope: 'everything' }, 'scope has an invalid format'],
    [{ name: 'p', retentionDays: 3, scope: 'service:' }, 'scope has an invalid format'],
    [
      { name: 'p', retentionDays: 3, action: 'archive' },
      'action must be one of: delete, anonymize',
    ],
    [
      { name: 'p', retentionDays: 3, scope: 'service:a', service: 'b' },
      'service b contradicts scope service:a',
    ],
  ])('rejects %j and stores nothing', async (payload, message) => {
    const { status, body } = await svc.post('/policies', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await svc.get('/policies')).body.data).toEqual([]);
  });

  it('answers NOT_FOUND when applying an unknown policy', async () => {
    const { status, body } = await svc.post('/policies/nothing/apply');
    expect(status).toBe(404);
    expect(body.error.message).toBe('Retention policy not found: nothing');
  });
});

describe('applying retention', () => {
  // The periodic retention job off (as in queries.test.ts): it could apply a policy between a
  // test's own statements.
  beforeEach(async () => {
    svc = await ledgerUnderTest({ env: { LEDGER_RETENTION_INTERVAL_MS: '0' } });
  });

  it('deletes the events older than the retention, and the chain still verifies', async () => {
    for (const [action, age] of [
      ['a', 90],
      ['b', 60],
      ['c', 10],
      ['d', 0],
    ] as const)
      await record(action, age);
    await svc.post('/policies', { name: 'month', retentionDays: 30 });
    const { status, body } = await svc.post('/policies/month/apply');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      policy: 'month',
      action: 'delete',
      cutoff: expect.any(String),
      deleted: 2,
      anonymized: 0,
    });
    expect(await actions()).toEqual(['c', 'd']);
    expect(await verify()).toMatchObject({ valid: true, checked: 2, checkpoints: 1 });
    expect((await svc.get('/policies/month')).body.data).toMatchObject({
      lastAffected: 2,
      lastAppliedAt: expect.any(String),
    });
    // Applying again finds nothing more; appending goes on from the same head.
    expect((await svc.post('/policies/month/apply')).body.data.deleted).toBe(0);
    await record('e', 0);
    expect(await verify()).toMatchObject({ valid: true, checked: 3 });
  });

  it('keeps the chain verifiable after removing scattered events, the last ones, and gaps that join', async () => {
    // Old events of two services, interleaved: deleting one service's leaves gaps between kept ones.
    for (let i = 0; i < 10; i++)
      await record(`e${i}`, 100 - i, { service: i % 2 ? 'billing' : 'catalog' });
    await svc.post('/policies', { name: 'billing', retentionDays: 30, scope: 'service:billing' });
    expect((await svc.post('/policies/billing/apply')).body.data.deleted).toBe(5);
    expect(await actions()).toEqual(['e0', 'e2', 'e4', 'e6', 'e8']);
    expect(await verify()).toMatchObject({ valid: true, checked: 5, checkpoints: 5 });

    // Now the rest: the gaps join into one that reaches the end of the chain.
    await svc.post('/policies', { name: 'catalog', retentionDays: 30, service: 'catalog' });
    expect((await svc.post('/policies/catalog/apply')).body.data.deleted).toBe(5);
    expect(await verify()).toMatchObject({ valid: true, checked: 0, checkpoints: 1 });
    const next = await record('after', 0);
    expect(next.seq).toBe(11);
    expect(await verify()).toMatchObject({ valid: true, checked: 1, checkpoints: 1 });
  });

  it('still detects a deletion made in the database next to a retention gap', async () => {
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await record(`e${i}`, i === 2 ? 100 : 0));
    await svc.post('/policies', { name: 'p', retentionDays: 30 });
    await svc.post('/policies/p/apply');
    expect(await verify()).toMatchObject({ valid: true, checkpoints: 1 });
    await svc.tables().deleteFrom('events').where('id', '=', events[1].id).execute();
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: events[3].id });
  });

  it('matches actions by prefix and leaves other events alone', async () => {
    for (const action of ['user.login', 'user.logout', 'users.x', 'invoice.paid'])
      await record(action, 50);
    await svc.post('/policies', { name: 'users', retentionDays: 7, scope: 'action:user.*' });
    expect((await svc.post('/policies/users/apply')).body.data.deleted).toBe(2);
    expect(await actions()).toEqual(['users.x', 'invoice.paid']);
    await svc.post('/policies', { name: 'exact', retentionDays: 7, scope: 'action:users.x' });
    expect((await svc.post('/policies/exact/apply')).body.data.deleted).toBe(1);
    expect(await verify()).toMatchObject({ valid: true, checked: 1 });
  });

  it('anonymizes: actor, metadata and details erased, the rest and the hashes kept', async () => {
    const old = await record('user.login', 40, { resource: 'r1', service: 'passport' });
    const recent = await record('user.login', 1);
    await svc.post('/policies', { name: 'anon', retentionDays: 30, action: 'anonymize' });
    const { body } = await svc.post('/policies/anon/apply');
    expect(body.data).toMatchObject({ deleted: 0, anonymized: 1 });
    expect((await svc.get(`/events/${old.id}`)).body.data).toEqual({
      ...old,
      actor: null,
      metadata: {},
      details: {},
      anonymized: true,
    });
    expect((await svc.get(`/events/${recent.id}`)).body.data).toEqual(recent);
    expect(await verify()).toMatchObject({ valid: true, checked: 2, checkpoints: 0 });
    // Anonymized once is enough.
    expect((await svc.post('/policies/anon/apply')).body.data.anonymized).toBe(0);
    // Putting personal data back into an anonymized event is detected.
    await svc
      .tables()
      .updateTable('events')
      .set({ actor: 'mallory' })
      .where('id', '=', old.id)
      .execute();
    expect(await verify()).toMatchObject({
      valid: false,
      firstInvalidId: old.id,
      reason: `Event ${old.id} does not verify: it is marked anonymized but holds personal data`,
    });
  });

  it('works through more events than one batch', async () => {
    const t = svc.tables();
    const old = new Date(daysAgo(60));
    const many = Array.from({ length: 2500 }, (_, i) => ({
      id: `bulk${i}`,
      action: `bulk.${i}`,
      actor: null,
      resource: null,
      service: null,
      metadata: {},
      details: {},
      timestamp: old,
    }));
    await appendEvents(t, many);
    await record('kept', 0);
    await svc.post('/policies', { name: 'bulk', retentionDays: 30 });
    expect((await svc.post('/policies/bulk/apply')).body.data.deleted).toBe(2500);
    const left = await t.selectFrom('events').select('action').execute();
    expect(left).toEqual([{ action: 'kept' }]);
    expect(await verify()).toMatchObject({ valid: true, checked: 1, checkpoints: 1 });
  });
});

describe('the retention job', () => {
  it('applies every policy periodically', async () => {
    svc = await ledgerUnderTest({ env: { LEDGER_RETENTION_INTERVAL_MS: '50' } });
    await record('old', 10);
    await record('new', 0);
    await svc.post('/policies', { name: 'week', retentionDays: 7 });
    await eventually(async () => (await actions()).length === 1, { timeout: 20_000 });
    expect(await actions()).toEqual(['new']);
    expect((await svc.get('/policies/week')).body.data.lastAppliedAt).not.toBeNull();
    expect(await verify()).toMatchObject({ valid: true, checked: 1 });
  });

  it('does not run when the interval is 0', async () => {
    svc = await ledgerUnderTest({ env: { LEDGER_RETENTION_INTERVAL_MS: '0' } });
    await record('old', 10);
    await svc.post('/policies', { name: 'week', retentionDays: 7 });
    // A job with no pause between runs would remove it within these few timer turns.
    for (let i = 0; i < 10; i++) await sleep(2);
    expect((await svc.get('/policies/week')).body.data.lastAppliedAt).toBeNull();
    expect(await actions()).toEqual(['old']);
  });

  it('refuses a bad interval at start-up, naming the variable', () => {
    expect(() => standaloneConfig(ledger, { LEDGER_RETENTION_INTERVAL_MS: 'hourly' })).toThrow(
      ConfigError,
    );
    expect(() => standaloneConfig(ledger, { LEDGER_RETENTION_INTERVAL_MS: '-5' })).toThrow(
      'Invalid configuration: LEDGER_RETENTION_INTERVAL_MS must be an integer from 0 to 604800000, got "-5"',
    );
  });
});
