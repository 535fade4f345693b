import { authSettings, buildServiceApp, createApp, type App, type Identity } from '@platform/core';
import { sql } from '@platform/db';
import { AUTH_ENV, CALLERS, eventually, identityHeaders, keyCaller } from '@platform/testing';
import { catalog } from '@platform/catalog';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';
import { seedSweep } from './sweep-seeds';
import { sample, type Document, type Operation, type Schema } from './sweep-inputs';

// Issue 38, item 3: every successful state-changing request is in the ledger, without the caller
// sending it: exactly one event per success (`<service>.<operationId>`, the caller as actor), none
// for a failure, and a change whose process died before its answer still gets its event.

type Audited = Operation & { 'x-audited'?: boolean };
const ADMIN = CALLERS.admin;

let gw: GatewayUnderTest;
let document: Document;
let ids: ReadonlyMap<string, string>;
beforeAll(async () => {
  const features = Object.fromEntries(
    SERVICES.map((s) => [`FEATURE_${s.name.toUpperCase()}`, 'true']),
  );
  gw = await gatewayUnderTest({
    ...features,
    ...AUTH_ENV,
    GIT_WEBHOOK_SECRET: 'sweep',
    RATE_LIMIT_MAX: '0',
    LEDGER_RETENTION_INTERVAL_MS: '0',
    STAGE_BACKEND_LOG_FOLLOW_MAX_MS: '100',
    AUDIT_CHANGES: 'true',
    AUDIT_RELAY_INTERVAL_MS: '300',
  });
  const res = await gw.app.inject({
    url: '/api/v1/openapi.json',
    headers: await identityHeaders(ADMIN),
  });
  document = res.json() as Document;
  const headers = async () => (await identityHeaders(ADMIN)) as Record<string, string>;
  ids = await seedSweep(
    gw,
    Object.keys(document.paths).map((path) => ({ path })),
    { headers },
  );
}, 60_000);
afterAll(() => gw.close());

const outboxRows = async () => {
  const schemas = SERVICES.map((s) => s.name);
  let total = 0;
  for (const schema of schemas) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(
      `${schema}.audit_outbox`,
    )}`.execute(gw.db.kysely);
    total += rows[0].n;
  }
  return total;
};
const drained = () =>
  eventually(async () => (await outboxRows()) === 0, {
    timeout: 15_000,
    what: 'the outboxes delivered',
  });

interface Row {
  id: string;
  action: string;
  actor: string | null;
  resource: string | null;
  metadata: { requestId?: string; outcome?: string; actorKind?: string };
}
const eventsAfter = async (seq: number) =>
  (
    await sql<Row & { seq: number }>`select seq, id, action, actor, resource, metadata
      from ledger.events where seq > ${seq} order by seq`.execute(gw.db.kysely)
  ).rows;
const head = async () =>
  (await sql<{ seq: number }>`select seq from ledger.chain_head`.execute(gw.db.kysely)).rows[0].seq;

const fill = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(
      ids.get(`${path} ${name}`) ||
        ((name === 'id' || name === 'idOrName') && ids.get(path)) ||
        ids.get(name) ||
        'sweep',
    ),
  );

/** A body of the operation's required fields, each a plausible value (or `{}`). */
function bodyOf(op: Operation) {
  const schema = op.requestBody?.content['application/json']?.schema as Schema | undefined;
  if (!schema) return undefined;
  return Object.fromEntries(
    (schema.required ?? []).map((name) => [name, sample(schema.properties?.[name] ?? {})]),
  );
}

it('records each successful change once, as its caller, and no failure', async () => {
  await drained();
  const mark = await head();
  const operations = Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        path,
        method: method.toUpperCase(),
        op: op as Audited,
      })),
    )
    .filter(({ op }) => op['x-audited'])
    // Deletes last, those of parts before those of wholes.
    .sort(
      (a, b) =>
        Number(a.method === 'DELETE') - Number(b.method === 'DELETE') ||
        (a.method === 'DELETE' ? b.path.length - a.path.length : 0),
    );
  expect(operations.length).toBeGreaterThan(60);
  const callers: Identity[] = [ADMIN, keyCaller(['admin'], { role: 'admin', name: 'ops-key' })];
  const calls: Array<{ requestId: string; action: string; status: number; actor: string }> = [];
  for (const [i, { path, method, op }] of operations.entries()) {
    const caller = callers[i % callers.length];
    const requestId = `audit-${i}`;
    const body = bodyOf(op);
    const res = await gw.app.inject({
      method: method as 'POST',
      url: fill(path),
      headers: {
        'x-request-id': requestId,
        ...(await identityHeaders(caller)),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    calls.push({
      requestId,
      action: op.operationId,
      status: res.statusCode,
      actor: caller.kind === 'user' ? caller.email : `key:ops-key`,
    });
  }
  await drained();
  const events = await eventsAfter(mark);
  const byRequest = new Map<string, Row[]>();
  for (const event of events) {
    const id = event.metadata.requestId ?? '';
    byRequest.set(id, [...(byRequest.get(id) ?? []), event]);
  }
  const wrong: string[] = [];
  for (const call of calls) {
    const got = byRequest.get(call.requestId) ?? [];
    const success = call.status >= 200 && call.status < 300;
    const expected = success ? [{ action: call.action, actor: call.actor }] : [];
    const seen = got.map((e) => ({ action: e.action, actor: e.actor }));
    if (JSON.stringify(seen) !== JSON.stringify(expected))
      wrong.push(`${call.action} (${call.status}): ${JSON.stringify(seen)}`);
  }
  expect(wrong).toEqual([]);
  const successes = calls.filter((c) => c.status < 300).length;
  expect(successes).toBeGreaterThan(25);
  // No event without a request of this sweep behind it, and every one delivered as succeeded.
  const changes = events.filter((e) => e.metadata.outcome !== undefined);
  expect(changes.filter((e) => !calls.some((c) => c.requestId === e.metadata.requestId))).toEqual(
    [],
  );
  expect(changes.every((e) => e.metadata.outcome === 'succeeded')).toBe(true);
  console.log(`audit sweep: ${operations.length} operations, ${successes} successes`);
}, 120_000);

it('names the resource a change made, and audits no ingestion or denial as a change', async () => {
  await drained();
  const mark = await head();
  const headers = { ...(await identityHeaders(ADMIN)), 'content-type': 'application/json' };
  const made = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/catalog/systems',
    headers,
    payload: JSON.stringify({ name: 'audited-system' }),
  });
  expect(made.statusCode).toBe(201);
  const tracked = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/pulse/events',
    headers,
    payload: JSON.stringify({ name: 'not-audited' }),
  });
  expect(tracked.statusCode).toBeLessThan(300);
  const denied = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/catalog/systems',
    headers: { ...(await identityHeaders(CALLERS.viewer)), 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'denied-system' }),
  });
  expect(denied.statusCode).toBe(403);
  await drained();
  const events = await eventsAfter(mark);
  expect(
    events.filter((e) => e.action.startsWith('catalog.') || e.action.startsWith('pulse.')),
  ).toEqual([
    expect.objectContaining({
      action: 'catalog.createSystem',
      actor: ADMIN.kind === 'user' ? ADMIN.email : '',
      resource: made.json().data.id,
      metadata: expect.objectContaining({
        outcome: 'succeeded',
        actorKind: 'user',
        method: 'POST',
      }),
    }),
  ]);
  // The denial is the policy's own event, as before.
  expect(events.map((e) => e.action)).toContain('access.denied');
});

it('still records a change whose process stopped before answering, once', async () => {
  await drained();
  const mark = await head();
  const mount = (grace: number, jobs: boolean) => ({
    database: gw.db,
    config: catalog.config({}),
    jobs: jobs ? { pollMs: 100 } : false,
    auth: authSettings(AUTH_ENV),
    platform: { app: () => gw.app },
    audit: { intervalMs: 200, pendingGraceMs: grace },
  });
  // The instance that "dies": its answer never leaves (a hook that never ends), after the
  // handler committed the change.
  const dying: App = createApp();
  dying.addHook('onSend', () => new Promise(() => undefined));
  await dying.register(catalog.plugin, mount(600_000, false));
  await dying.ready();
  const headers = { ...(await identityHeaders(ADMIN)), 'content-type': 'application/json' };
  void dying.inject({
    method: 'POST',
    url: '/api/v1/catalog/systems',
    headers: { ...headers, 'x-request-id': 'killed-1' },
    payload: JSON.stringify({ name: 'orphan-system' }),
  });
  await eventually(
    async () => {
      const { rows } =
        await sql`select 1 from catalog.systems where name = 'orphan-system'`.execute(gw.db.kysely);
      return rows.length === 1;
    },
    { what: 'the change committed' },
  );
  // Another instance of the service on the same database takes the pending row over after its
  // grace period, and delivers it with outcome unknown.
  const heir = await buildServiceApp(catalog, mount(500, true));
  try {
    const events = await eventually(
      async () => {
        const found = (await eventsAfter(mark)).filter((e) => e.metadata.requestId === 'killed-1');
        return found.length > 0 && found;
      },
      { timeout: 15_000, what: 'the orphan change delivered' },
    );
    expect(events).toEqual([
      expect.objectContaining({
        action: 'catalog.createSystem',
        actor: 'root@example.com',
        metadata: expect.objectContaining({ outcome: 'unknown' }),
      }),
    ]);
    await drained();
    expect(
      (await eventsAfter(mark)).filter((e) => e.metadata.requestId === 'killed-1'),
    ).toHaveLength(1);
  } finally {
    await heir.close();
  }
}, 30_000);

it('sets aside a change event the ledger refuses, and delivers the ones after it', async () => {
  await drained();
  const mark = await head();
  // A row the ledger can never take (an actor kind it does not know), before a good change.
  await sql`insert into catalog.audit_outbox (id, status, action, actor, actor_kind, method, route,
    status_code, request_id, completed_at) values ('refused-1', 'succeeded', 'catalog.createSystem',
    'root@example.com', 'robot', 'POST', '/api/v1/catalog/systems', 201, 'refused-1', now())`.execute(
    gw.db.kysely,
  );
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/catalog/systems',
    headers: { ...(await identityHeaders(ADMIN)), 'x-request-id': 'after-refused' },
    payload: { name: 'after-refused' },
  });
  expect(res.statusCode).toBe(201);
  const delivered = await eventually(
    async () => {
      const found = (await eventsAfter(mark)).filter(
        (e) => e.metadata.requestId === 'after-refused',
      );
      return found.length > 0 && found;
    },
    { timeout: 15_000, what: 'the change after the refused one delivered' },
  );
  expect(delivered).toEqual([expect.objectContaining({ action: 'catalog.createSystem' })]);
  const { rows } = await sql<{ id: string; status: string }>`
    select id, status from catalog.audit_outbox`.execute(gw.db.kysely);
  expect(rows).toEqual([{ id: 'refused-1', status: 'rejected' }]);
  expect((await eventsAfter(mark)).some((e) => e.id === 'refused-1')).toBe(false);
  await sql`delete from catalog.audit_outbox where id = 'refused-1'`.execute(gw.db.kysely);
}, 30_000);
