import {
  authenticateRequests,
  authSettings,
  createApp,
  decryptSecret,
  deriveKey,
  encryptSecret,
  remoteKeyResolver,
  signIdentity,
  verifyIdentity,
  type App,
  type Identity,
  type KeySource,
} from '../src/index';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const ENV = {
  OIDC_CLIENT_ID: 'id',
  OIDC_CLIENT_SECRET: 'secret',
  SESSION_SECRET: SECRET,
};

describe('secrets at rest', () => {
  const key = deriveKey(SECRET, 'tokens');

  it('decrypt to what was encrypted, and differ each time', () => {
    const a = encryptSecret(key, 'gho_planted');
    const b = encryptSecret(key, 'gho_planted');
    expect(a).not.toBe(b);
    expect(a).not.toContain('gho_planted');
    expect(decryptSecret(key, a)).toBe('gho_planted');
  });

  it('do not open with another key or after tampering', () => {
    const sealed = encryptSecret(key, 'gho_planted');
    expect(() => decryptSecret(deriveKey(SECRET, 'other purpose'), sealed)).toThrow();
    expect(() => decryptSecret(deriveKey('another-secret', 'tokens'), sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => decryptSecret(key, `v1.${raw.toString('base64url')}`)).toThrow();
    expect(() => decryptSecret(key, 'plain text')).toThrow('Not an encrypted secret');
  });
});

describe('signed identities', () => {
  const user: Identity = {
    kind: 'user',
    email: 'ada@example.com',
    name: 'Ada',
    sessionId: 's1',
    role: 'member',
    groups: [],
  };

  it('carry the identity to whoever holds the secret', async () => {
    expect(await verifyIdentity(SECRET, await signIdentity(SECRET, user))).toEqual(user);
  });

  it('are refused when signed with another secret, altered, or not tokens at all', async () => {
    const token = await signIdentity(SECRET, user);
    expect(await verifyIdentity('another-secret-of-at-least-32-characters', token)).toBeNull();
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(payload, 'base64url')
      .toString()
      .replace('ada@example.com', 'eve@example.com');
    const altered = `${header}.${Buffer.from(forged).toString('base64url')}.${signature}`;
    expect(await verifyIdentity(SECRET, altered)).toBeNull();
    expect(await verifyIdentity(SECRET, 'not-a-token')).toBeNull();
    expect(
      await verifyIdentity(SECRET, await signIdentity(SECRET, { kind: 'anonymous' })),
    ).toBeNull();
  });
});

describe('the authentication hook', () => {
  let app: App;
  beforeAll(async () => {
    app = createApp();
    authenticateRequests(app, {
      settings: authSettings(ENV),
      // The identity service's check, as a table of the one valid key and session.
      resolve: async ({ apiKey, sessionToken }) =>
        apiKey === 'good-key'
          ? {
              kind: 'key',
              keyId: 'k1',
              name: 'ci',
              role: 'member',
              scopes: ['*'],
              owner: null,
              team: null,
            }
          : sessionToken === 'good-session'
            ? {
                kind: 'user',
                email: 'ada@example.com',
                name: 'Ada',
                sessionId: 's1',
                role: 'member',
                groups: [],
              }
            : null,
      signInPath: '/login',
    });
    app.get('/api/who', async (request) => request.identity);
    app.get('/page', async (request) => request.identity);
    app.get('/api/open', { config: { public: true } }, async (request) => request.identity);
    const from = (...keyFrom: KeySource[]) => ({
      config: { access: { resource: 'test.thing', action: 'read' as const, keyFrom } },
    });
    app.get('/api/bearer', from('bearer'), async (request) => request.identity);
    app.get('/api/basic-user', from('basic-user'), async (request) => request.identity);
    app.get('/api/basic-password', from('basic-password'), async (request) => request.identity);
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('identifies a key, a session cookie and a signed identity', async () => {
    expect((await get('/api/who', { 'x-api-key': 'good-key' })).json()).toEqual({
      kind: 'key',
      keyId: 'k1',
      name: 'ci',
      role: 'member',
      scopes: ['*'],
      owner: null,
      team: null,
    });
    expect(
      (await get('/api/who', { cookie: 'platform_session=good-session' })).json(),
    ).toMatchObject({ kind: 'user', email: 'ada@example.com' });
    const token = await signIdentity(SECRET, { kind: 'service', name: 'git' });
    expect((await get('/api/who', { 'x-platform-identity': token })).json()).toEqual({
      kind: 'service',
      name: 'git',
    });
  });

  it('lets a valid key win over a lapsed session cookie', async () => {
    const res = await get('/api/who', { 'x-api-key': 'good-key', cookie: 'platform_session=old' });
    expect(res.json()).toMatchObject({ kind: 'key' });
  });

  it.each([
    [{}, 'Authentication required: sign in, or send an API key in X-API-Key'],
    [{ 'x-api-key': 'bad' }, 'The API key is not valid: unknown, revoked or expired'],
    [{ cookie: 'platform_session=old' }, 'Your session has ended; sign in again'],
    [{ 'x-platform-identity': 'x.y.z' }, 'The platform identity token is not valid or has expired'],
  ])('answers %j with a 401 envelope', async (headers, message) => {
    const res = await get('/api/who', headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message } });
  });

  it('takes the key from the Authorization header only in the forms the route accepts', async () => {
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const who = async (url: string, authorization: string) => {
      const res = await get(url, { authorization });
      return res.statusCode === 200 ? res.json().kind : res.statusCode;
    };
    expect(await who('/api/bearer', 'Bearer good-key')).toBe('key');
    expect(await who('/api/bearer', 'bearer  good-key ')).toBe('key');
    expect(await who('/api/bearer', basic('good-key', ''))).toBe(401);
    expect(await who('/api/basic-user', basic('good-key', ''))).toBe('key');
    expect(await who('/api/basic-user', basic('good-key', 'anything'))).toBe('key');
    expect(await who('/api/basic-user', 'Bearer good-key')).toBe(401);
    expect(await who('/api/basic-password', basic('any-name', 'good-key'))).toBe('key');
    expect(await who('/api/basic-password', basic('good-key', ''))).toBe(401);
    expect(await who('/api/basic-password', basic('x', 'bad-key'))).toBe(401);
    // Elsewhere the header means nothing: no key, so a 401 asking for one.
    expect(await who('/api/who', 'Bearer good-key')).toBe(401);
    expect(await who('/api/who', basic('x', 'good-key'))).toBe(401);
    const bad = await get('/api/basic-password', { authorization: basic('x', 'bad-key') });
    expect(bad.json().error.message).toBe('The API key is not valid: unknown, revoked or expired');
  });

  it('sends pages to sign in and back, and answers public routes to anyone', async () => {
    const page = await get('/page?tab=2');
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/login?returnTo=%2Fpage%3Ftab%3D2');
    expect((await get('/page', { cookie: 'platform_session=old' })).statusCode).toBe(302);
    expect((await get('/api/open')).json()).toEqual({ kind: 'anonymous' });
    expect((await get('/api/open', { 'x-api-key': 'bad' })).json()).toEqual({ kind: 'anonymous' });
    expect((await get('/api/open', { 'x-api-key': 'good-key' })).json()).toMatchObject({
      kind: 'key',
    });
  });

  it('makes everyone anonymous when authentication is off', async () => {
    const open = createApp();
    authenticateRequests(open, { settings: authSettings({}) });
    open.get('/api/who', async (request) => request.identity);
    expect((await open.inject({ method: 'GET', url: '/api/who' })).json()).toEqual({
      kind: 'anonymous',
    });
    await open.close();
  });
});

describe('a standalone service checking keys with the identity service', () => {
  it('answers 503 when the identity service cannot be reached, and nothing else', async () => {
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const app = createApp();
    authenticateRequests(app, {
      settings: authSettings(ENV),
      resolve: remoteKeyResolver(`http://127.0.0.1:${port}`),
    });
    app.get('/api/who', async (request) => request.identity);
    const res = await app.inject({ method: 'GET', url: '/api/who', headers: { 'x-api-key': 'k' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: `The identity service at http://127.0.0.1:${port} is unreachable`,
    });
    await app.close();
  });
});
