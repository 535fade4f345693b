import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '@platform/db';
import {
  AUTH_ENV,
  CALLERS,
  identityHeaders,
  jsonApiAs,
  keyCaller,
  listen,
  person,
  serviceUnderTest,
  sleep,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import { request } from 'undici';
import { billing } from '../src/index';
import { billingUnderTest } from './helpers';

// Syncs, FOCUS uploads, sync jobs and adapters with authentication on (issue 31): platform
// configuration, admins only; tokens never stored nor echoed; synced items record who started
// the sync (null when no person did).

const TOKEN = 'sk-access-test-token-0123456789';
const { admin, owner, teamMate, stranger, viewer } = CALLERS;
const EMAIL = {
  admin: 'root@example.com',
  owner: 'owner@example.com',
  teamMate: 'mate@example.com',
  stranger: 'stranger@example.com',
};

/** OpenAI's costs API, one page of one charge, for the right token only; counts its calls. */
let calls = 0;
const openai: Server = createServer((req, res) => {
  calls += 1;
  const ok = req.headers.authorization === `Bearer ${TOKEN}`;
  const bucket = {
    start_time: 1767225600,
    results: [{ amount: { value: 0.5, currency: 'usd' }, line_item: 'gpt', project_id: 'p' }],
  };
  res
    .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
    .end(JSON.stringify(ok ? { data: [bucket], has_more: false } : { error: {} }));
});

const svc = useService(
  async () => {
    await new Promise<void>((resolve) => openai.listen(0, '127.0.0.1', resolve));
    const { port } = openai.address() as AddressInfo;
    const env = { ...AUTH_ENV, BILLING_OPENAI_URL: `http://127.0.0.1:${port}` };
    return serviceUnderTest(billing, { env });
  },
  { scope: 'all' },
);
let base: string;
beforeAll(async () => {
  base = await listen(svc.app);
});
afterAll(() => new Promise((resolve) => openai.close(resolve)));

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, billing.prefix, identity);
const WINDOW = { from: '2026-01-01', to: '2026-01-31' };
const HEADER = 'BilledCost,BillingCurrency,ChargePeriodStart,ProviderName,ServiceName';
/** A FOCUS CSV of one charge per service of `provider`. */
const focus = (provider: string, ...services: string[]) =>
  [HEADER, ...services.map((s) => `1.25,USD,2026-01-05T00:00:00Z,${provider},${s}`)].join('\n');

/** Uploads a FOCUS CSV to POST /sync/focus as `identity`, over a socket as a client streams it. */
async function upload(identity: Identity | undefined, csv: string) {
  const query = new URLSearchParams(WINDOW);
  const res = await request(`${base}${billing.prefix}/sync/focus?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', ...(await identityHeaders(identity)) },
    body: csv,
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

async function finished(id: string) {
  for (;;) {
    const job = (await as(admin).get(`/sync/jobs/${id}`)).body.data;
    if (job.status !== 'running') return job;
    await sleep(10);
  }
}

/** Starts a sync as `identity` and answers the finished job. */
async function synced(identity: Identity, body: object) {
  const res = await as(identity).post('/sync', { ...WINDOW, ...body });
  expect(res.status).toBe(202);
  return finished(res.body.data.id);
}

/** Everything billing stores about syncs and items, as text. */
async function dump() {
  const { rows } = await sql<{ dump: string | null }>`select concat_ws(' ',
    (select string_agg(t::text, ' ') from billing.sync_jobs t),
    (select string_agg(i::text, ' ') from billing.items i),
    (select string_agg(j::text, ' ') from billing.jobs j)) as dump`.execute(svc.db.kysely);
  return rows[0].dump ?? '';
}

const itemsOf = async (provider: string) =>
  (await as(admin).get(`/items?provider=${provider}`)).body.data as Array<Record<string, unknown>>;

describe('syncs, uploads, sync jobs and adapters: admins only', () => {
  it('refuses everyone else, starts nothing and never echoes the token', async () => {
    const refused: Array<[Identity | undefined, number, string]> = [
      [undefined, 401, 'authentication'],
      [viewer, 403, 'the role admin'],
      [stranger, 403, 'the role admin'],
      [owner, 403, 'the role admin'],
      [teamMate, 403, 'the role admin'],
      [keyCaller(['billing:write']), 403, 'the scope admin'],
      [keyCaller(['billing:write'], { role: 'admin', owner: EMAIL.admin }), 403, 'the scope admin'],
      [keyCaller(['admin'], { role: 'member' }), 403, 'the role admin'],
    ];
    for (const [caller, status, missing] of refused) {
      const answers = {
        'create billing.sync': await as(caller).post('/sync', {
          ...WINDOW,
          provider: 'openai',
          token: TOKEN,
        }),
        'create billing.sync ': await as(caller).post('/sync', {
          ...WINDOW,
          provider: 'focus',
          csv: focus('Refused', 'S'),
        }),
        'ingest billing.sync': await upload(caller, focus('Refused', 'S')),
        'read billing.sync': await as(caller).get('/sync/jobs'),
        'read billing.sync ': await as(caller).get('/sync/jobs/any'),
        'read billing.sync  ': await as(caller).get('/sync/jobs/any/skipped'),
        'read billing.adapter': await as(caller).get('/sync/adapters'),
      };
      for (const [what, res] of Object.entries(answers)) {
        expect([what, res.status]).toEqual([what, status]);
        expect(JSON.stringify(res.body)).not.toContain(TOKEN);
        if (status === 403)
          expect(res.body.error.message).toMatch(
            new RegExp(`^\\S+ may not ${what.trim()}: it needs ${missing}$`),
          );
      }
    }
    expect(calls).toBe(0);
    expect((await as(admin).get('/sync/jobs')).body.data).toEqual([]);
    expect(await itemsOf('Refused')).toEqual([]);
    expect(await dump()).not.toContain(TOKEN);
  });

  it('lets admins and admin keys sync; the token reaches the provider only', async () => {
    const job = await synced(admin, { provider: 'openai', token: TOKEN });
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 1, createdBy: EMAIL.admin });
    expect(calls).toBe(1);
    expect(JSON.stringify((await as(admin).get('/sync/jobs')).body)).not.toContain(TOKEN);
    expect(await dump()).not.toContain(TOKEN);
    expect(await itemsOf('openai')).toEqual([
      expect.objectContaining({ createdBy: EMAIL.admin, team: null }),
    ]);

    const adminKey = keyCaller(['admin'], { role: 'admin', owner: EMAIL.admin, name: 'ops' });
    expect((await as(adminKey).get('/sync/adapters')).status).toBe(200);
    const byKey = await synced(adminKey, { provider: 'focus', csv: focus('ByKey', 'S') });
    expect(byKey).toMatchObject({ status: 'completed', createdBy: EMAIL.admin });
    const teamKey = keyCaller(['admin'], { role: 'admin', owner: null, team: 'ops', name: 'bot' });
    const byTeamKey = await synced(teamKey, { provider: 'focus', csv: focus('ByTeamKey', 'S') });
    expect(byTeamKey.createdBy).toBe('key:bot');
    expect(await itemsOf('ByTeamKey')).toEqual([
      expect.objectContaining({ createdBy: 'key:bot', team: null }),
    ]);
  });
});

describe('who synced items belong to', () => {
  it('records the admin who uploaded a FOCUS file; a re-import keeps the creator', async () => {
    const res = await upload(admin, focus('Cloud', 'EC2', 'S3'));
    expect(res.status).toBe(202);
    expect(res.body.data.createdBy).toBe(EMAIL.admin);
    expect(await finished(res.body.data.id)).toMatchObject({ itemsCreated: 2 });
    const second = 'second@example.com';
    const other = person(second, 'admin');
    const again = await synced(other, {
      provider: 'focus',
      csv: focus('Cloud', 'EC2', 'S3', 'RDS'),
    });
    expect(again).toMatchObject({ itemsCreated: 1, itemsUpdated: 2, createdBy: second });
    const byName = Object.fromEntries((await itemsOf('Cloud')).map((i) => [i.name, i.createdBy]));
    expect(byName).toEqual({ EC2: EMAIL.admin, S3: EMAIL.admin, RDS: second });

    // They are the admin's, not every member's: a member may not change provider data.
    const [item] = await itemsOf('Cloud');
    const edit = await as(stranger).put(`/items/${item.id}`, { amount: 1 });
    expect(edit.status).toBe(403);
    expect(edit.body.error.message).toMatch(/it belongs to (root|second)@example\.com\)$/);
    expect((await as(admin).get(`/items/${item.id}`)).body.data).toEqual(item);
    // A FOCUS file is the truth for its window: a member's upload would have removed them.
    const before = await itemsOf('Cloud');
    expect((await upload(owner, focus('Cloud', 'Other'))).status).toBe(403);
    const csv = focus('Cloud', 'Other');
    expect((await as(teamMate).post('/sync', { ...WINDOW, provider: 'focus', csv })).status).toBe(
      403,
    );
    expect(await itemsOf('Cloud')).toEqual(before);
  });

  it('records no one when a platform service syncs for no person, the person it acts for else', async () => {
    const service: Identity = { kind: 'service', name: 'workflows' };
    const bare = await synced(service, { provider: 'focus', csv: focus('Bare', 'S') });
    expect(bare.createdBy).toBeNull();
    const [item] = await itemsOf('Bare');
    expect(item).toMatchObject({ createdBy: null, team: null });
    const edit = await as(owner).del(`/items/${item.id}`);
    expect(edit.body.error.message).toMatch(/it needs the role admin \(it belongs to no one\)$/);

    const forAnn: Identity = { kind: 'service', name: 'workflows', user: 'ann@example.com' };
    const acted = await synced(forAnn, { provider: 'focus', csv: focus('ForAnn', 'S') });
    expect(acted.createdBy).toBe('ann@example.com');
    expect(await itemsOf('ForAnn')).toEqual([
      expect.objectContaining({ createdBy: 'ann@example.com' }),
    ]);
  });

  it('records no one with authentication off (everyone is anonymous)', async () => {
    const open = await billingUnderTest();
    try {
      const res = await open.post('/sync', {
        ...WINDOW,
        provider: 'focus',
        csv: focus('Open', 'S'),
      });
      expect(res.body.data.createdBy).toBeNull();
      for (;;) {
        const job = (await open.get(`/sync/jobs/${res.body.data.id}`)).body.data;
        if (job.status === 'completed') break;
        await sleep(10);
      }
      const items = (await open.get('/items?provider=Open')).body.data;
      expect(items).toEqual([expect.objectContaining({ createdBy: null, team: null })]);
    } finally {
      await open.close();
    }
  });
});
