import { createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
} from 'node:net';
import { authSettings, buildServiceApp, type App } from '@platform/core';
import { sql, type PlatformDatabase } from '@platform/db';
import {
  AUTH_ENV,
  CALLERS,
  eventually,
  identityHeaders,
  migratedService,
  testDatabase,
} from '@platform/testing';
import { ledger } from '../src/index';
import { appendEvents } from '../src/domain/appender';
import type { LedgerDatabase } from '../src/database';

// Issue 38, item 4: the trail leaves the platform. Sinks push every new event once, in order, to
// a webhook (signed) and a syslog receiver (RFC 5424 over TCP), across a restart of the service
// and a receiver's failure; the export streams the trail as NDJSON or OCSF.

const SECRET = 'a webhook secret of the tests';
const ENV = {
  LEDGER_SINK_INTERVAL_MS: '100',
  LEDGER_SINK_ALLOW_PRIVATE_TARGETS: 'true',
  // Heads signed on request only (POST /events/heads), so the test knows when there is one.
  LEDGER_SIGNING_KEY: randomBytes(32).toString('base64'),
  LEDGER_SIGNING_INTERVAL_MS: '0',
};

/** A webhook receiver that checks each signature, and fails the first delivery it is sent. */
function webhookReceiver() {
  const seqs: number[] = [];
  const heads: Array<{ seq: number; statement: string; signature: string }> = [];
  const bad: string[] = [];
  let failNext = true;
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-platform-timestamp']);
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
      if (req.headers['x-platform-signature'] !== expected) bad.push(body.slice(0, 80));
      if (failNext) {
        failNext = false;
        res.writeHead(503).end();
        return;
      }
      const batch = JSON.parse(body) as { events: Array<{ seq: number }>; heads: typeof heads };
      for (const event of batch.events) seqs.push(event.seq);
      heads.push(...batch.heads);
      res.writeHead(204).end();
    });
  });
  return { server, seqs, heads, bad };
}

const RFC5424 =
  /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) (\S+) (\[(?:audit|head)@32473 [^\]]*\]) \uFEFF(\{.*\})$/;

/** A syslog receiver (RFC 6587 octet counting), parsing each message by RFC 5424's grammar. */
function syslogReceiver() {
  const messages: Array<{ pri: number; msgid: string; seq: number; event: { id: string } }> = [];
  const malformed: string[] = [];
  const server: TcpServer = createTcpServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const space = buffer.indexOf(0x20);
        if (space < 0) return;
        const length = Number(buffer.subarray(0, space).toString());
        if (buffer.length < space + 1 + length) return;
        const message = buffer.subarray(space + 1, space + 1 + length).toString('utf8');
        buffer = buffer.subarray(space + 1 + length);
        const match = RFC5424.exec(message);
        if (!match) malformed.push(message.slice(0, 120));
        else
          messages.push({
            pri: Number(match[1]),
            msgid: match[6],
            seq: Number(/seq="(\d+)"/.exec(match[7])?.[1]),
            event: JSON.parse(match[8]),
          });
      }
    });
  });
  return { server, messages, malformed };
}

const portOf = (server: Server | TcpServer) => (server.address() as AddressInfo).port;

let db: PlatformDatabase;
let app: App;
const web = webhookReceiver();
const syslog = syslogReceiver();
const start = () =>
  buildServiceApp(ledger, {
    database: db,
    config: ledger.config(ENV),
    jobs: { pollMs: 50 },
    auth: authSettings(AUTH_ENV),
  });

beforeAll(async () => {
  await new Promise<void>((resolve) => web.server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => syslog.server.listen(0, '127.0.0.1', resolve));
  db = await testDatabase(migratedService(ledger));
  app = await start();
});
afterAll(async () => {
  await app.close();
  await db.close();
  web.server.close();
  syslog.server.close();
});

const as = async (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: object,
  who = CALLERS.admin,
) => {
  const res = await app.inject({
    method,
    url: `/api/v1/ledger${url}`,
    headers: await identityHeaders(who),
    ...(body ? { payload: body } : {}),
  });
  return { status: res.statusCode, body: res.json(), raw: res.body };
};
const appendMany = (from: number, count: number) =>
  appendEvents(
    db.schema<LedgerDatabase>('ledger'),
    Array.from({ length: count }, (_, i) => ({
      id: `sink-${from + i}`,
      action: 'catalog.createService',
      actor: 'ann@example.com',
      resource: `svc-${from + i}`,
      service: 'catalog',
      metadata: { method: 'POST', outcome: 'succeeded', route: '/api/v1/catalog/services' },
      details: {},
      timestamp: new Date(),
    })),
  );

it('checks a sink by its kind, admins only, and never shows its secret', async () => {
  expect(
    (await as('POST', '/sinks', { name: 'w', kind: 'webhook', url: 'http://127.0.0.1:9/' })).body
      .error.message,
  ).toBe('A webhook sink needs secret (its X-Platform-Signature key)');
  expect(
    (
      await as('POST', '/sinks', {
        name: 's',
        kind: 'syslog',
        host: 'h',
        port: 514,
        url: 'http://x/',
      })
    ).status,
  ).toBe(400);
  expect((await as('POST', '/sinks', { name: 's', kind: 'syslog' })).body.error.message).toBe(
    'A syslog sink needs host and port',
  );
  expect((await as('GET', '/sinks', undefined, CALLERS.owner)).status).toBe(403);
  expect((await as('GET', '/sinks')).body.data).toEqual([]);
});

it('pushes every event once, in order, to a webhook and syslog, across a failure and a restart', async () => {
  await appendMany(0, 3); // before the sinks: not theirs (they start at the head)
  const hook = await as('POST', '/sinks', {
    name: 'siem-webhook',
    kind: 'webhook',
    url: `http://127.0.0.1:${portOf(web.server)}/hook`,
    secret: SECRET,
  });
  expect(hook.status).toBe(201);
  expect(hook.raw).not.toContain(SECRET);
  expect(hook.body.data).toMatchObject({ hasSecret: true, cursor: 3 });
  const { rows } = await sql<{
    secret: string;
  }>`select secret_encrypted as secret from ledger.sinks`.execute(db.kysely);
  expect(rows[0].secret).toMatch(/^v1\./);
  expect(rows[0].secret).not.toContain(SECRET);
  const log = await as('POST', '/sinks', {
    name: 'siem-syslog',
    kind: 'syslog',
    host: '127.0.0.1',
    port: portOf(syslog.server),
    format: 'ocsf',
  });
  expect(log.status).toBe(201);

  await appendMany(3, 4);
  await eventually(() => web.seqs.length === 4 && syslog.messages.length === 4, {
    timeout: 10_000,
    what: 'the first events delivered',
  });
  // The restart: the service stops; events are appended meanwhile (another instance).
  await app.close();
  await appendMany(7, 5);
  app = await start();
  await appendMany(12, 2);
  await eventually(() => web.seqs.length === 11 && syslog.messages.length === 11, {
    timeout: 10_000,
    what: 'every event delivered',
  });
  const expected = Array.from({ length: 11 }, (_, i) => 4 + i);
  expect(web.seqs).toEqual(expected);
  expect(syslog.messages.map((m) => m.seq)).toEqual(expected);
  expect(web.bad).toEqual([]);
  expect(syslog.malformed).toEqual([]);
  expect(syslog.messages[0]).toMatchObject({
    pri: 13 * 8 + 6,
    msgid: 'audit',
    event: expect.objectContaining({ class_uid: 6003, activity_id: 1, type_uid: 600301 }),
  });
  const state = await as('GET', '/sinks/siem-webhook');
  expect(state.body.data).toMatchObject({ cursor: 14, failures: 0, lastError: null });
}, 40_000);

it('sends each signed chain head once, after the events it covers, verifiable by the receiver', async () => {
  const signed = await as('POST', '/events/heads');
  expect(signed.status).toBe(201);
  expect(signed.body.data.seq).toBe(14);
  await eventually(
    () => web.heads.length === 1 && syslog.messages.some((m) => m.msgid === 'chain-head'),
    { timeout: 10_000, what: 'the signed head delivered' },
  );
  // A receiver checks it with the published key, as any verifier does.
  const key = createPublicKey((await as('GET', '/events/signing-key')).body.data.publicKey);
  const [head] = web.heads;
  expect(head).toEqual(signed.body.data);
  expect(verify(null, Buffer.from(head.statement), key, Buffer.from(head.signature, 'base64'))).toBe(true); // prettier-ignore
  const onSyslog = syslog.messages.filter((m) => m.msgid === 'chain-head');
  expect(onSyslog.map((m) => [m.seq, m.event])).toEqual([[14, signed.body.data]]);

  // Not moved: nothing new is signed nor sent; moved: the next head follows its events.
  expect((await as('POST', '/events/heads')).status).toBe(200);
  await appendMany(14, 1);
  const next = await as('POST', '/events/heads');
  expect(next.body.data.seq).toBe(15);
  await eventually(() => web.heads.length === 2 && web.seqs.at(-1) === 15, {
    timeout: 10_000,
    what: 'the second head delivered',
  });
  expect(web.heads.map((h) => h.seq)).toEqual([14, 15]);
  await eventually(() => syslog.messages.filter((m) => m.msgid === 'chain-head').length === 2);
  // Events and heads in the order sent: each head after the events it covers.
  expect(syslog.messages.slice(-3).map((m) => [m.msgid, m.seq])).toEqual([
    ['chain-head', 14],
    ['audit', 15],
    ['chain-head', 15],
  ]);
}, 40_000);

it('exports the trail streamed as NDJSON or OCSF, within a time range', async () => {
  const ndjson = await app.inject({
    url: '/api/v1/ledger/export',
    headers: await identityHeaders(CALLERS.admin),
  });
  expect(ndjson.statusCode).toBe(200);
  expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
  const lines = ndjson.body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.length).toBeGreaterThanOrEqual(14);
  expect(lines.map((l) => l.seq)).toEqual([...lines.map((l) => l.seq)].sort((a, b) => a - b));
  expect(lines[1].prevHash).toBe(lines[0].hash);

  const ocsf = await app.inject({
    url: '/api/v1/ledger/export?format=ocsf&from=2000-01-01',
    headers: await identityHeaders(CALLERS.admin),
  });
  const first = JSON.parse(ocsf.body.split('\n')[0]);
  expect(first).toMatchObject({
    class_uid: 6003,
    category_uid: 6,
    activity_id: 1,
    status_id: 1,
    api: { operation: 'catalog.createService', service: { name: 'catalog' } },
    actor: { user: { uid: 'ann@example.com' } },
    metadata: { version: '1.1.0', product: expect.any(Object) },
  });
  const none = await app.inject({
    url: '/api/v1/ledger/export?to=2000-01-01',
    headers: await identityHeaders(CALLERS.admin),
  });
  expect(none.body).toBe('');
  const bad = await app.inject({
    url: '/api/v1/ledger/export?from=yesterday',
    headers: await identityHeaders(CALLERS.admin),
  });
  expect(bad.statusCode).toBe(400);
  const viewer = await app.inject({
    url: '/api/v1/ledger/export',
    headers: await identityHeaders(CALLERS.viewer),
  });
  expect(viewer.statusCode).toBe(403);
});
