import { signIdentity } from '@platform/core';
import { sql } from '@platform/db';
import { useService } from '@platform/testing';
import { backendsUnderTest, SESSION_SECRET } from './backends-helpers';
import { stageUnderTest } from './helpers';

// App secrets: set write-only, stored encrypted, read by the backend as env.NAME, and never in
// an answer, a log line or the database in plain text (every answer and row is grepped).
const b = useService(
  () => backendsUnderTest({ STAGE_BACKEND_SECRET_MAX_BYTES: '64', STAGE_BACKEND_SECRETS_MAX: '3' }),
  { scope: 'all' },
);

const VALUE = 'sk-live-0123456789abcdef';
const NEWER = 'sk-live-fedcba9876543210';
/** Every answer of the test, to grep for the values. */
const answers: string[] = [];

const api = async (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const identity = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
  const res = await b.s.svc.app.inject({
    method,
    url: `/api/v1/stage${url}`,
    headers: { 'x-platform-identity': identity },
    ...(payload ? { payload } : {}),
  });
  answers.push(res.body);
  return { status: res.statusCode, body: res.json() };
};

const APP = `
export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === '/log') { console.log('the token is ' + env.API_TOKEN); return new Response('logged'); }
    if (path === '/throw') throw new Error('rejected ' + env.API_TOKEN);
    return Response.json({
      token: env.API_TOKEN === undefined ? null : env.API_TOKEN.length,
      matches: [env.API_TOKEN === '${VALUE}', env.API_TOKEN === '${NEWER}'],
      auth: env.auth.kind, app: env.app.sid, other: env.OTHER ?? null,
      keys: Object.keys(env).sort(),
    });
  },
};
`;

describe('app secrets', () => {
  it('are set write-only, read by the backend as env.NAME, replaced and deleted', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    expect((await b.call(sid, '/')).json()).toMatchObject({ token: null, keys: ['app', 'auth'] });
    const set = await api('PUT', `/apps/${sid}/secrets/API_TOKEN`, { value: VALUE });
    expect(set.status).toBe(200);
    expect(Object.keys(set.body.data).sort()).toEqual(['createdAt', 'name', 'updatedAt']);
    expect(set.body.data.name).toBe('API_TOKEN');
    await api('PUT', `/apps/${sid}/secrets/OTHER`, { value: 'other-value' });
    const listed = await api('GET', `/apps/${sid}/secrets`);
    expect(listed.body.data.map((s: { name: string }) => s.name)).toEqual(['API_TOKEN', 'OTHER']);
    const seen = (await b.call(sid, '/')).json();
    expect(seen).toEqual({
      token: VALUE.length,
      matches: [true, false],
      auth: 'user',
      app: sid,
      other: 'other-value',
      keys: ['API_TOKEN', 'OTHER', 'app', 'auth'],
    });
    const replaced = await api('PUT', `/apps/${sid}/secrets/API_TOKEN`, { value: NEWER });
    expect(replaced.body.data.createdAt).toBe(set.body.data.createdAt);
    expect(replaced.body.data.updatedAt).toBeGreaterThanOrEqual(set.body.data.updatedAt);
    expect((await b.call(sid, '/')).json().matches).toEqual([false, true]);
    expect((await api('DELETE', `/apps/${sid}/secrets/API_TOKEN`)).body.data.name).toBe('API_TOKEN'); // prettier-ignore
    expect((await b.call(sid, '/')).json().token).toBeNull();
    const again = await api('DELETE', `/apps/${sid}/secrets/API_TOKEN`);
    expect([again.status, again.body.error.message]).toEqual([404, `Secret of app ${sid} not found: API_TOKEN`]); // prettier-ignore
  });

  it('never show the value: not in answers, log lines, failures nor the database', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    await api('PUT', `/apps/${sid}/secrets/API_TOKEN`, { value: VALUE });
    expect((await b.call(sid, '/log')).body).toBe('logged');
    const failed = await b.call(sid, '/throw');
    expect(failed.status).toBe(502);
    expect(failed.json().error.message).toBe(
      `The backend of app ${sid} failed (threw): Error: rejected [secret API_TOKEN]`,
    );
    const lines = (await api('GET', `/apps/${sid}/logs`)).body.data.map((l: { message: string }) => l.message); // prettier-ignore
    expect(lines).toEqual([
      'The request failed (threw): Error: rejected [secret API_TOKEN]',
      'the token is [secret API_TOKEN]',
    ]);
    answers.push(failed.body);
    for (const answer of answers) expect(answer).not.toContain(VALUE);
    const db = b.s.svc.db.kysely;
    const rows = await sql`select row_to_json(t)::text as row from stage.app_secrets t
      union all select row_to_json(l)::text from stage.backend_logs l`.execute(db);
    expect(rows.rows.length).toBeGreaterThan(2);
    for (const { row } of rows.rows as Array<{ row: string }>) {
      expect(row).not.toContain(VALUE);
      expect(row).not.toContain(NEWER);
    }
    const stored = await sql<{ value: string }>`select value from stage.app_secrets where app_sid = ${sid}`.execute(db); // prettier-ignore
    expect(stored.rows[0].value).toMatch(/^v1\./);
  });

  it('refuse bad names, oversized values and too many secrets, naming what is wrong', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    for (const name of ['api_token', '1TOKEN', 'A-B', `A${'B'.repeat(64)}`]) {
      const res = await api('PUT', `/apps/${sid}/secrets/${name}`, { value: 'x' });
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.body.error.message).toContain('name');
    }
    const big = await api('PUT', `/apps/${sid}/secrets/BIG`, { value: 'x'.repeat(65) });
    expect([big.status, big.body.error.message]).toEqual([
      413,
      'value: the secret BIG is 65 bytes, over 64 (STAGE_BACKEND_SECRET_MAX_BYTES)',
    ]);
    expect((await api('PUT', `/apps/${sid}/secrets/EMPTY`, { value: '' })).status).toBe(400);
    for (const name of ['ONE', 'TWO', 'THREE'])
      expect((await api('PUT', `/apps/${sid}/secrets/${name}`, { value: 'v' })).status).toBe(200);
    // Setting one it has again is fine; a fourth is not.
    expect((await api('PUT', `/apps/${sid}/secrets/ONE`, { value: 'w' })).status).toBe(200);
    const fourth = await api('PUT', `/apps/${sid}/secrets/FOUR`, { value: 'v' });
    expect(fourth.status).toBe(400);
    expect(fourth.body.error.message).toContain('STAGE_BACKEND_SECRETS_MAX');
    expect((await api('GET', '/apps/nope/secrets')).status).toBe(404);
  });

  it('are refused without SESSION_SECRET, which the error names', async () => {
    const open = await stageUnderTest();
    try {
      const session = await open.session();
      const app = await open.api.post('/apps', { sessionId: session, name: 'no-secrets' });
      const res = await open.api.put(`/apps/${app.body.data.sid}/secrets/API_TOKEN`, { value: VALUE }); // prettier-ignore
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('SESSION_SECRET');
      expect(JSON.stringify(res.body)).not.toContain(VALUE);
    } finally {
      await open.svc.close();
    }
  });
});
