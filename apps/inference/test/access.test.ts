import { sql } from '@platform/db';
import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import { describeIdentity, type Identity } from '@platform/core';
import { inference } from '../src/index';

const BASE_URL = 'http://127.0.0.1:9/v1';
const svc = useService(
  () =>
    serviceUnderTest(inference, {
      env: { ...AUTH_ENV, OPENAI_API_KEY: 'sk-company', INFERENCE_BASE_URLS: BASE_URL },
      jobs: false,
    }),
  { scope: 'all' },
);

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, inference.prefix, identity);
const { admin, owner, teamMate, stranger, viewer } = CALLERS;
const messages = [{ role: 'user', content: 'Hi' }];
const chat = (identity: Identity) => as(identity).post('/chat', { model: 'mock-1', messages });

describe('providers and models: platform configuration', () => {
  const OPENAI = { type: 'openai', defaultModel: 'gpt-4o', envVar: 'OPENAI_API_KEY' };

  it('lets every signed-in caller read providers and models, and nobody anonymous', async () => {
    for (const caller of [viewer, stranger, keyCaller(['inference:read']), keyCaller(['*:read'])])
      for (const path of ['/providers', '/providers/mock', '/models'])
        expect((await as(caller).get(path)).status).toBe(200);
    expect((await as(undefined).get('/providers')).status).toBe(401);
    const other = await as(keyCaller(['catalog:read'])).get('/providers');
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(
      'key:key-catalog:read may not read inference.provider: it needs the scope inference:read',
    );
  });

  it('lets only admins create, change and delete a provider, and sync models', async () => {
    for (const caller of [viewer, stranger, owner, teamMate]) {
      const res = await as(caller).post('/providers', { name: 'p', ...OPENAI });
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        code: 'FORBIDDEN',
        message: `${describeIdentity(caller)} may not create inference.provider: it needs the role admin`,
      });
    }
    const writeKey = await as(keyCaller(['inference:write'])).post('/providers', {
      name: 'p',
      ...OPENAI,
    });
    expect(writeKey.body.error.message).toMatch(/it needs the scope admin$/);
    expect((await as(admin).get('/providers/p')).status).toBe(404);
    const made = await as(admin).post('/providers', { name: 'company', ...OPENAI });
    expect(made.status).toBe(201);
    const adminKey = keyCaller(['admin'], { role: 'admin', owner: 'root@example.com' });
    expect((await as(adminKey).put('/providers/company', { defaultModel: 'gpt-4.1' })).status).toBe(
      200,
    );
    expect((await as(stranger).post('/models/sync', {})).status).toBe(403);
    expect((await as(admin).post('/models/sync', { provider: 'mock' })).status).toBe(200);
    expect((await as(admin).del('/providers/company')).status).toBe(200);
  });

  it("refuses a member repointing the company's key elsewhere, and changes nothing (issue 31)", async () => {
    const made = await as(admin).post('/providers', {
      name: 'openai',
      ...OPENAI,
      baseUrl: BASE_URL,
    });
    const before = made.body.data;
    for (const caller of [stranger, keyCaller(['inference:write', 'inference:invoke'])]) {
      const api = as(caller);
      const attempts = [
        await api.put('/providers/openai', { baseUrl: null, type: 'openai-compatible' }),
        await api.put('/providers/openai', { envVar: 'INFERENCE_KEY_MINE' }),
        await api.post('/providers', { name: 'mine', ...OPENAI, baseUrl: BASE_URL }),
        await api.del('/providers/openai'),
        await api.post('/models/sync', { provider: 'openai' }),
      ];
      expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    }
    expect((await as(admin).get('/providers/openai')).body.data).toEqual(before);
    const names = (await as(admin).get('/providers')).body.data.map(
      (p: { name: string }) => p.name,
    );
    expect(names).not.toContain('mine');
    await as(admin).del('/providers/openai');
  });
});

describe('calling models: members and inference:invoke keys', () => {
  const CALLS: Array<[string, object]> = [
    ['/chat', { model: 'mock-1', messages }],
    ['/chat/stream', { model: 'mock-1', messages }],
    ['/embed', { model: 'mock-1', input: 'text' }],
    ['/images', { model: 'mock-1', prompt: 'a cat' }],
    ['/transcribe', { model: 'mock-1', audio: Buffer.from('audio').toString('base64') }],
  ];

  it.each(CALLS)('%s: members, admins and invoke keys, never viewers', async (path, body) => {
    for (const caller of [stranger, admin, keyCaller(['inference:invoke'])])
      expect((await as(caller).post(path, body)).status).toBe(200);
    const byViewer = await as(viewer).post(path, body);
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.message).toBe(
      'viewer@example.com may not invoke inference.model: it needs the role member (or admin)',
    );
    const readKey = await as(keyCaller(['inference:read'])).post(path, body);
    expect(readKey.body.error.message).toMatch(/it needs the scope inference:invoke$/);
    const viewerKey = keyCaller(['inference:invoke'], { role: 'viewer' });
    expect((await as(viewerKey).post(path, body)).status).toBe(403);
    expect((await as(undefined).post(path, body)).status).toBe(401);
  });

  it('lets an inference:invoke key call models and nothing else', async () => {
    const api = as(keyCaller(['inference:invoke']));
    expect((await api.post('/chat', { model: 'mock-1', messages })).status).toBe(200);
    expect((await api.get('/providers')).status).toBe(403);
    expect((await api.get('/usage')).status).toBe(403);
  });
});

describe('the request log: private to its caller and admins', () => {
  /** Writes the queued log rows (any read of the log does) and empties the log. */
  beforeEach(async () => {
    await as(admin).get('/usage');
    await sql`delete from inference.requests`.execute(svc.db.kysely);
  });

  it('records who made each call', async () => {
    const teamKey = keyCaller(['inference:invoke', 'inference:read'], {
      owner: null,
      team: 'payments',
      name: 'payments-bot',
    });
    const mine = await chat(owner);
    const bot = await chat(teamKey);
    const read = async (identity: Identity, id: string) =>
      (await as(identity).get(`/requests/${id}`)).body.data.createdBy;
    expect(await read(owner, mine.body.data.requestId)).toBe('owner@example.com');
    expect(await read(teamKey, bot.body.data.requestId)).toBe('key:payments-bot');
  });

  it('answers one request to its caller and admins only, just after the call', async () => {
    const id = (await chat(owner)).body.data.requestId;
    for (const caller of [
      owner,
      admin,
      keyCaller(['inference:read'], { owner: 'owner@example.com' }),
    ])
      expect((await as(caller).get(`/requests/${id}`)).status).toBe(200);
    for (const caller of [stranger, teamMate, viewer]) {
      const res = await as(caller).get(`/requests/${id}`);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `${describeIdentity(caller)} may not read inference.request: it needs ownership (it belongs to owner@example.com)`,
      );
    }
    expect((await as(stranger).get('/requests/nope')).status).toBe(404);
    expect((await as(undefined).get(`/requests/${id}`)).status).toBe(401);
  });

  it('sums and lists only the caller’s own calls; admins see every call', async () => {
    await chat(owner);
    await chat(owner);
    await chat(stranger);
    const usage = async (identity: Identity) => (await as(identity).get('/usage')).body.data;
    const mine = await usage(owner);
    expect(mine.summary.totalRequests).toBe(2);
    expect(mine.requests.map((r: { createdBy: string }) => r.createdBy)).toEqual([
      'owner@example.com',
      'owner@example.com',
    ]);
    expect((await usage(stranger)).summary.totalRequests).toBe(1);
    expect((await usage(teamMate)).summary.totalRequests).toBe(0);
    expect((await usage(viewer)).requests).toEqual([]);
    expect((await usage(admin)).summary.totalRequests).toBe(3);
    // Case does not matter: the same person signs in with another case of their email.
    const shouting = { ...owner, email: 'OWNER@example.com' };
    expect((await usage(shouting)).summary.totalRequests).toBe(2);
  });

  it('keeps calls logged before ownership for admins only', async () => {
    const id = (await chat(owner)).body.data.requestId;
    await as(admin).get('/usage');
    await sql`update inference.requests set created_by = null where id = ${id}`.execute(
      svc.db.kysely,
    );
    const res = await as(owner).get(`/requests/${id}`);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/needs the role admin \(it belongs to no one\)$/);
    expect((await as(owner).get('/usage')).body.data.summary.totalRequests).toBe(0);
    expect((await as(admin).get(`/requests/${id}`)).body.data.createdBy).toBeNull();
  });
});
