import { serviceUnderTest, sleep, testDatabase, type ServiceUnderTest } from '@platform/testing';
import { checksum, newApiKey, parseApiKey } from '../src/domain/keys';
import { passport } from '../src/index';
import { everyStoredText, PREFIX, SESSION_SECRET } from './helpers';

// Authentication on (an issuer that is never reached: keys need none) and off.
const AUTH_ON = {
  OIDC_ISSUER: 'http://127.0.0.1:9',
  OIDC_CLIENT_ID: 'platform-client',
  OIDC_CLIENT_SECRET: 'secret',
  SESSION_SECRET,
};

let svc: ServiceUnderTest;
afterEach(() => svc?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key?: string, payload?: object) =>
  svc.app.inject({
    method,
    url: `${PREFIX}${url}`,
    headers: key ? { 'x-api-key': key } : {},
    ...(payload ? { payload } : {}),
  });

describe('key format', () => {
  it('is plk_ + 32 base62 + a 6-character CRC32 checksum of the random part', () => {
    const key = newApiKey();
    expect(key).toMatch(/^plk_[0-9A-Za-z]{38}$/);
    expect(parseApiKey(key)).toBe(key.slice(4, 36));
    expect(key.slice(36)).toBe(checksum(key.slice(4, 36)));
    const typo = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(parseApiKey(typo)).toBeUndefined();
    expect(parseApiKey(`${key}x`)).toBeUndefined();
    expect(parseApiKey(key.replace('plk_', 'pk_'))).toBeUndefined();
  });
});

describe('with authentication off', () => {
  beforeEach(async () => {
    svc = await serviceUnderTest(passport);
  });

  it('answers /me anonymous, and the key routes work', async () => {
    expect((await call('GET', '/me')).json().data).toEqual({ kind: 'anonymous' });
    const made = await call('POST', '/keys', undefined, { name: 'ci' });
    expect(made.statusCode).toBe(201);
    expect(made.json().data).toMatchObject({ name: 'ci', createdBy: null, revokedAt: null });
    expect((await call('GET', '/keys')).json().data).toHaveLength(1);
  });
});

describe('with authentication on', () => {
  const BOOTSTRAP = newApiKey();
  beforeEach(async () => {
    const env = { ...AUTH_ON, PLATFORM_API_KEY: BOOTSTRAP };
    svc = await serviceUnderTest(passport, { env, jobs: false });
  });

  it('creates a key shown once, lists it without the secret, and stores only its hash', async () => {
    const res = await call('POST', '/keys', BOOTSTRAP, { name: 'deploy' });
    expect(res.statusCode).toBe(201);
    const { key, ...shown } = res.json().data;
    expect(parseApiKey(key)).toBeDefined();
    expect(shown).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'deploy',
      prefix: key.slice(0, 8),
      createdBy: 'key:PLATFORM_API_KEY',
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
      bootstrap: false,
      scopes: ['*'],
      team: null,
    });
    const me = await call('GET', '/me', key);
    expect(me.json().data).toEqual({
      kind: 'key',
      keyId: shown.id,
      name: 'deploy',
      role: 'admin',
      scopes: ['*'],
      owner: null,
      team: null,
      teams: [],
    });
    const list = await call('GET', '/keys', BOOTSTRAP);
    expect(list.body).not.toContain(key);
    expect(
      list.json().data.find((k: { id: string }) => k.id === shown.id).lastUsedAt,
    ).not.toBeNull();
    expect((await call('GET', `/keys/DEPLOY`, BOOTSTRAP)).json().data.id).toBe(shown.id);
    // A key the bootstrap key made is no admin (AUTH_ADMINS is unset): it may not manage keys.
    expect((await call('GET', '/keys', key)).statusCode).toBe(403);
    const stored = await everyStoredText(svc);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(BOOTSTRAP);
    expect(stored).not.toContain(key.slice(4));
  });

  it('revokes a key at once; the name may then be used again', async () => {
    const key = (await call('POST', '/keys', BOOTSTRAP, { name: 'tmp' })).json().data.key;
    const revoked = await call('DELETE', '/keys/tmp', BOOTSTRAP);
    expect(revoked.json().data.revokedAt).not.toBeNull();
    const denied = await call('GET', '/me', key);
    expect(denied.statusCode).toBe(401);
    expect(denied.json().error.code).toBe('UNAUTHORIZED');
    expect((await call('POST', '/keys', BOOTSTRAP, { name: 'TMP' })).statusCode).toBe(201);
    expect((await call('POST', '/keys', BOOTSTRAP, { name: 'tmp' })).statusCode).toBe(409);
  });

  it('stops honouring a key once it expires, and refuses an expiry in the past', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const key = (await call('POST', '/keys', BOOTSTRAP, { name: 'short', expiresAt: soon })).json()
      .data.key;
    expect((await call('GET', '/me', key)).statusCode).toBe(200);
    await sleep(1600);
    expect((await call('GET', '/me', key)).statusCode).toBe(401);
    const past = await call('POST', '/keys', BOOTSTRAP, { name: 'old', expiresAt: soon });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.message).toMatch(/expiresAt must be in the future/);
  });

  it('refuses a malformed key without reading the database', async () => {
    svc.queries.reset();
    const res = await call('GET', '/me', 'plk_notAKeyAtAll');
    expect(res.statusCode).toBe(401);
    const typo = newApiKey().replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await call('GET', '/me', typo)).statusCode).toBe(401);
    expect(svc.queries.count()).toBe(0);
    // A well-formed unknown key costs one read.
    expect((await call('GET', '/me', newApiKey())).statusCode).toBe(401);
    expect(svc.queries.count()).toBe(1);
  });

  it('validates the body', async () => {
    const res = await call('POST', '/keys', BOOTSTRAP, { name: 'x', scope: 'all' });
    expect(res.statusCode).toBe(400);
    expect((await call('POST', '/keys', BOOTSTRAP, {})).json().error.message).toMatch(/name/);
    const reserved = await call('POST', '/keys', BOOTSTRAP, { name: 'platform_api_key' });
    expect(reserved.json().error.message).toMatch(/reserved/);
  });
});

describe('the bootstrap key', () => {
  it('is seeded hashed at start-up, and a revoked one stays revoked across restarts', async () => {
    const db = await testDatabase();
    const bootstrap = newApiKey();
    const env = { ...AUTH_ON, PLATFORM_API_KEY: bootstrap };
    const first = await serviceUnderTest(passport, { db, env, jobs: false });
    svc = first;
    expect((await call('GET', '/me', bootstrap)).json().data.name).toBe('PLATFORM_API_KEY');
    expect((await call('DELETE', '/keys/PLATFORM_API_KEY', bootstrap)).statusCode).toBe(200);
    await first.app.close();

    svc = await serviceUnderTest(passport, { db, env, jobs: false });
    expect((await call('GET', '/me', bootstrap)).statusCode).toBe(401);
    const other = newApiKey();
    await svc.app.close();

    // Another value is a new bootstrap key; unsetting it revokes that one.
    svc = await serviceUnderTest(passport, {
      db,
      env: { ...env, PLATFORM_API_KEY: other },
      jobs: false,
    });
    expect((await call('GET', '/me', other)).statusCode).toBe(200);
    await svc.app.close();
    svc = await serviceUnderTest(passport, { db, env: AUTH_ON, jobs: false });
    expect((await call('GET', '/me', other)).statusCode).toBe(401);
  });

  it('refuses a PLATFORM_API_KEY that is not a platform key, naming the variable', () => {
    expect(() => passport.config({ PLATFORM_API_KEY: 'hunter2' })).toThrow(/PLATFORM_API_KEY/);
  });
});
