import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import {
  cookieBrowser,
  deadUrl,
  eventually,
  sharedPostgres,
  startOpenIdProvider,
  startProcess,
  type Json,
  type OpenIdProvider,
  type RunningProcess,
} from '@platform/testing';
import { SERVICES } from '../src/index';

// Issue 31: the platform as docker-compose.yml deploys it (every service in its own process, on
// PostgreSQL) behind two gateways, with authentication on: a person signs in through a gateway,
// and their session and a scoped key work on both; GitHub's signed deliveries reach git.

const root = join(__dirname, '..', '..', '..');
const main = (app: string) => join(root, `apps/${app}/dist/main.js`);
const SECRET = 'webhook secret of the deployment test';
const METRICS = 'metrics token of the deployment test';
/** The bootstrap key (an admin's): the audit trail is the admins' to read. */
const BOOTSTRAP = 'plk_uw3t8IgpQMBl8P7ddItxgCwzXJVYKRS33KlsMI';

let idp: OpenIdProvider;
let database: { url: string; remove(): Promise<void> };
const processes: RunningProcess[] = [];
let gateways: string[];

beforeAll(async () => {
  idp = await startOpenIdProvider();
  database = await sharedPostgres();
  const ports = [await deadUrl(), await deadUrl()];
  const common = {
    DATABASE_URL: database.url,
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'platform-client-secret',
    SESSION_SECRET: 'the deployment test session secret, 32+ characters',
    PLATFORM_URL: ports[0],
    FEATURE_GIT: 'true',
    // Issue 38: every change audited through each service's outbox, metrics behind a token.
    AUDIT_CHANGES: 'true',
    AUDIT_RELAY_INTERVAL_MS: '500',
    METRICS_TOKEN: METRICS,
    PLATFORM_API_KEY: BOOTSTRAP,
  };
  const proxies: Record<string, string> = {};
  // One at a time: each migrates its own schema as it starts.
  for (const service of SERVICES) {
    const started = await startProcess(
      main(service.name),
      {
        ...common,
        ...(service.name === 'passport' ? { PUBLIC_URL: ports[0] } : {}),
        ...(service.name === 'git' ? { GIT_WEBHOOK_SECRET: SECRET } : {}),
      },
      { timeoutMs: 60_000 },
    );
    processes.push(started);
    proxies[`${service.name.toUpperCase()}_PROXY_URL`] = started.url;
  }
  for (const url of ports) {
    const port = Number(new URL(url).port);
    processes.push(
      await startProcess(main('gateway'), { ...common, ...proxies }, { port, timeoutMs: 60_000 }),
    );
  }
  gateways = ports;
}, 240_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await database?.remove();
  await idp?.stop();
});

const browser = cookieBrowser();
const json = async (res: Response) => (await res.json()) as Json;

it('signs a person in through a gateway, and the session works on both', async () => {
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
  const login = await browser.get(`${gateways[0]}/api/v1/passport/login?returnTo=/catalog/`);
  expect(login.status).toBe(302);
  const authorize = await browser.get(login.headers.get('location') as string);
  const callback = await browser.get(authorize.headers.get('location') as string);
  expect(callback.status).toBe(302);
  expect(callback.headers.get('location')).toBe('/catalog/');
  for (const gateway of gateways) {
    const me = await json(await browser.get(`${gateway}/api/v1/passport/me`));
    expect(me.data).toMatchObject({ kind: 'user', email: 'ada@example.com', role: 'member' });
  }
  // A change through the session, from the platform's own page, on the second gateway.
  const made = await browser.request(`${gateways[1]}/api/v1/catalog/services`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'payments-api' }),
  });
  expect(made.status).toBe(201);
  expect((await json(made)).data.createdBy).toBe('ada@example.com');
  // Another site's page cannot use the cookie to change anything.
  const forged = await browser.request(`${gateways[0]}/api/v1/catalog/services`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    body: JSON.stringify({ name: 'forged' }),
  });
  expect(forged.status).toBe(403);
});

it('lets a scoped key do on both gateways what its scopes allow, and nothing more', async () => {
  const minted = await browser.request(`${gateways[0]}/api/v1/passport/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'catalog-reader', scopes: ['catalog:read'] }),
  });
  expect(minted.status).toBe(201);
  const key = (await json(minted)).data.key as string;
  for (const gateway of gateways) {
    const read = await fetch(`${gateway}/api/v1/catalog/services`, {
      headers: { 'x-api-key': key },
    });
    expect(read.status).toBe(200);
    const write = await fetch(`${gateway}/api/v1/catalog/services`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'not-allowed' }),
    });
    expect(write.status).toBe(403);
    expect((await json(write)).error.message).toMatch(/needs the scope catalog:write/);
  }
});

it("receives GitHub's signed delivery through the gateway, and refuses an unsigned one", async () => {
  const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const deliver = (headers: Record<string, string>) =>
    fetch(`${gateways[1]}/api/v1/git/webhooks/receive`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': 'a1b2c3',
        ...headers,
      },
      body,
    });
  const signed = await deliver({ 'x-hub-signature-256': signature });
  expect([200, 201]).toContain(signed.status);
  expect((await deliver({})).status).toBe(401);
});

it('audits a change made through one gateway in the ledger service, by the person who made it', async () => {
  // The catalog service's outbox, relayed through the gateway to the ledger service's process.
  const events = await eventually(
    async () => {
      const res = await fetch(`${gateways[1]}/api/v1/ledger/events?action=catalog.createService`, {
        headers: { 'x-api-key': BOOTSTRAP },
      });
      const rows = (await json(res)).data as Array<{ actor: string; metadata: object }> | undefined;
      return rows && rows.length > 0 && rows;
    },
    { timeout: 20_000, what: 'the audit event of the change' },
  );
  expect(events).toEqual([
    expect.objectContaining({
      actor: 'ada@example.com',
      service: 'catalog',
      metadata: expect.objectContaining({ outcome: 'succeeded', method: 'POST' }),
    }),
  ]);
}, 30_000);

it('runs a workflow across services: stage calls billing and the ledger as the person who ran it', async () => {
  const post = async (gateway: string, path: string, body: object) =>
    browser.request(`${gateway}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const session = await json(await post(gateways[0], '/api/v1/stage/sessions', {}));
  const workflows = {
    order: {
      steps: [
        {
          'billing.createItem': { name: 'Order {{ input.order }}', amount: '{{ input.cents }}' },
          as: 'item',
        },
        {
          'ledger.log': { action: 'order.placed', resource: 'item:{{ steps.item.id }}' },
          as: 'audit',
        },
        { respond: { item: '{{ steps.item.id }}', audit: '{{ steps.audit.id }}' } },
      ],
    },
  };
  const pushed = await post(gateways[0], `/api/v1/stage/sessions/${session.data.id}/push`, {
    files: { '/app/platform.workflows.json': JSON.stringify({ version: 1, workflows }) },
  });
  expect(pushed.status).toBe(200);
  const app = await post(gateways[0], '/api/v1/stage/apps', {
    sessionId: session.data.id,
    name: 'orders',
  });
  expect(app.status).toBe(201);
  const sid = (await json(app)).data.sid as string;
  // Run through the other gateway: stage's process reaches billing's and the ledger's through
  // PLATFORM_URL, acting for ada.
  const run = await post(gateways[1], `/api/v1/run/${sid}/order`, { input: { order: 'A-7', cents: 990 } }); // prettier-ignore
  expect(run.status).toBe(200);
  const { item, audit } = (await json(run)).data;
  const read = async (path: string) =>
    (await json(await browser.get(`${gateways[0]}${path}`))).data;
  expect(await read(`/api/v1/billing/items/${item}`)).toMatchObject({
    name: 'Order A-7',
    amount: 990,
    stageApp: sid,
    author: 'ada@example.com',
  });
  const event = await fetch(`${gateways[0]}/api/v1/ledger/events/${audit}`, {
    headers: { 'x-api-key': BOOTSTRAP },
  });
  expect((await json(event)).data).toMatchObject({
    action: 'order.placed',
    actor: 'ada@example.com',
    resource: `item:${item}`,
  });
}, 60_000);

it('serves metrics on the gateway and a standalone service to a bearer of METRICS_TOKEN', async () => {
  for (const url of [gateways[0], processes[0].url]) {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^platform_http_requests_total\{/m);
    // The pool of each process's PostgreSQL connections (the default size, 10).
    expect(text).toMatch(/^platform_database_connections\{state="in_use"[^}]*\} \d+$/m);
    expect(text).toMatch(/^platform_database_connections\{state="waiting"[^}]*\} \d+$/m);
    expect(text).toMatch(/^platform_database_connections_max(\{[^}]*\})? 10$/m);
  }
});

it('answers from the in-process fallback once a proxied service is killed', async () => {
  const pulse = processes[SERVICES.findIndex((s) => s.name === 'pulse')];
  await pulse.kill('SIGKILL');
  for (const gateway of gateways) {
    const res = await browser.get(`${gateway}/api/v1/pulse/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-served-by')).toBe('in-process-fallback');
  }
});
