import { signIdentity } from '@platform/core';
import { sql } from '@platform/db';
import type { Json, ServiceUnderTest } from '@platform/testing';
import { newApiKey } from '../src/domain/keys';
import {
  authEnv,
  everyStoredText,
  location,
  PREFIX,
  SESSION_SECRET,
  signIn,
  startIdp,
  startPassport,
  type Browser,
  type Idp,
} from './helpers';

const PROVIDER_SECRET = 'the-provider-client-secret-planted-in-tests';
const BOOTSTRAP = newApiKey();

let idp: Idp;
let provider: Idp;
let svc: ServiceUnderTest;
let base: string;
let ada: Browser;
beforeAll(async () => {
  [idp, provider] = await Promise.all([startIdp(), startIdp()]);
  const env = authEnv(idp, {
    OAUTH_FORGE_SECRET: PROVIDER_SECRET,
    SECRET_OF_ANOTHER: 'not-for-providers',
    PLATFORM_API_KEY: BOOTSTRAP,
  });
  ({ svc, base } = await startPassport(env));
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
  ada = (await signIn(base)).browser;
});
afterAll(async () => {
  await svc.close();
  await Promise.all([idp.stop(), provider.stop()]);
});

const api = async (method: string, path: string, body?: object, headers = {}) => {
  const res = await fetch(`${base}${PREFIX}${path}`, {
    method,
    headers: {
      'x-api-key': BOOTSTRAP,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Json };
};
/** A service's signed identity, acting for `user` (libs/core's `{ kind: 'service', name, user? }`). */
const asService = async (user?: string) => ({
  'x-platform-identity': await signIdentity(SESSION_SECRET, {
    kind: 'service',
    name: 'git',
    ...(user ? { user } : {}),
  } as Parameters<typeof signIdentity>[1]),
});

describe('providers', () => {
  it('registers providers with per-type defaults and refuses plain secrets', async () => {
    const gh = await api('POST', '/providers', {
      name: 'GitHub',
      type: 'github',
      clientId: 'gh-client',
      clientSecret: 'env:OAUTH_GITHUB',
      scopes: ['repo'],
    });
    expect(gh.status).toBe(201);
    expect(gh.body.data).toMatchObject({
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      clientSecret: 'env:OAUTH_GITHUB',
    });
    const plain = await api('POST', '/providers', {
      name: 'x',
      type: 'github',
      clientId: 'c',
      clientSecret: 'ghp_realsecret',
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/env:OAUTH_<NAME>/);
    const bare = await api('POST', '/providers', {
      name: 'y',
      type: 'oauth2',
      clientId: 'c',
      clientSecret: 'env:OAUTH_S',
    });
    expect(bare.body.error.message).toBe('authorizeUrl is required for type oauth2');
    const http = await api('POST', '/providers', {
      name: 'z',
      type: 'oauth2',
      clientId: 'c',
      clientSecret: 'env:OAUTH_S',
      authorizeUrl: 'http://example.com/a',
      tokenUrl: 'https://example.com/t',
    });
    expect(http.body.error.message).toMatch(/authorizeUrl must be an https URL/);
    expect((await api('POST', '/providers', { ...gh.body.data, id: undefined })).status).toBe(400);
    const taken = await api('POST', '/providers', {
      name: 'github',
      type: 'github',
      clientId: 'c',
      clientSecret: 'env:OAUTH_S',
    });
    expect(taken.status).toBe(409);
    expect((await api('DELETE', '/providers/github')).status).toBe(200);
    expect((await api('GET', '/providers/github')).status).toBe(404);
  });
});

describe('provider secrets and endpoints', () => {
  const oauth2 = {
    type: 'oauth2',
    clientId: 'c',
    authorizeUrl: 'https://attacker.example.com/authorize',
    tokenUrl: 'https://attacker.example.com/token',
  };

  it.each([
    'env:SESSION_SECRET',
    'env:OIDC_CLIENT_SECRET',
    'env:SECRET_OF_ANOTHER',
    'env:oauth_lower',
    'env:OAUTH_',
    'env:OAUTH_X ',
  ])('refuses clientSecret %s: only env:OAUTH_<NAME> may be sent to a provider', async (ref) => {
    const res = await api('POST', '/providers', { ...oauth2, name: 'evil', clientSecret: ref });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      "clientSecret must be env:OAUTH_<NAME>, a variable holding only this provider's secret (never the secret itself, nor any other variable)",
    );
  });

  it.each([
    ['github', { tokenUrl: 'https://attacker.example.com/token' }],
    ['google', { authorizeUrl: 'https://attacker.example.com/authorize' }],
    ['github', { authorizeUrl: 'https://github.com/login/oauth/authorize' }],
  ])('refuses endpoints for type %s: they are fixed', async (type, urls) => {
    const res = await api('POST', '/providers', {
      name: 'fixed',
      type,
      clientId: 'c',
      clientSecret: 'env:OAUTH_FIXED',
      ...urls,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `type ${type} has fixed endpoints: authorizeUrl and tokenUrl are for type oauth2 only`,
    );
  });
});

describe('delegated tokens', () => {
  beforeAll(async () => {
    const made = await api('POST', '/providers', {
      name: 'forge',
      type: 'oauth2',
      clientId: 'forge-client',
      clientSecret: 'env:OAUTH_FORGE_SECRET',
      authorizeUrl: `${provider.url}/authorize`,
      tokenUrl: `${provider.url}/token`,
      scopes: ['repo', 'read:user'],
    });
    expect(made.status).toBe(201);
  });

  it('connects a signed-in user, lists the connection without tokens, hands the token to services only', async () => {
    const connect = await ada.get(`${base}${PREFIX}/providers/forge/connect?returnTo=/git`);
    expect(connect.status).toBe(302);
    const consent = new URL(location(connect));
    expect(consent.origin).toBe(provider.url);
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('scope')).toBe('repo read:user');
    const callback = await ada.get(location(await ada.get(consent.href)));
    expect(callback.status).toBe(302);
    expect(location(callback)).toBe('/git');
    const issued = (await provider.issued()).at(-1)!;

    const connections = await ada.get(`${base}${PREFIX}/connections`);
    const text = await connections.text();
    expect(text).not.toContain(issued.accessToken);
    expect(JSON.parse(text).data.map((c: { providerName: string }) => c.providerName)).toEqual([
      'signin',
      'forge',
    ]);

    const token = await api(
      'POST',
      '/tokens',
      { provider: 'forge', user: 'ADA@example.com' },
      await asService('ada@example.com'),
    );
    expect(token.status).toBe(200);
    expect(token.body.data).toEqual({
      accessToken: issued.accessToken,
      tokenType: expect.stringMatching(/bearer/i),
      expiresAt: expect.any(String),
      scopes: ['dummy'], // what the provider says it granted, not what was asked
    });

    // Not to users, not to keys.
    const asUser = await ada.request(`${base}${PREFIX}/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'forge', user: 'ada@example.com' }),
    });
    expect(asUser.status).toBe(403);
    const asKey = await api('POST', '/tokens', { provider: 'forge', user: 'ada@example.com' });
    expect(asKey.status).toBe(403);
    expect(asKey.body.error.code).toBe('FORBIDDEN');

    // Nothing in plain text at rest: tokens, the provider's and the sign-in client secrets.
    const stored = await everyStoredText(svc);
    for (const planted of [
      issued.accessToken,
      issued.refreshToken!,
      PROVIDER_SECRET,
      SESSION_SECRET,
    ])
      expect(stored).not.toContain(planted);
    for (const signin of await idp.issued()) {
      expect(stored).not.toContain(signin.accessToken);
      expect(stored).not.toContain(signin.refreshToken);
    }
  });

  it('refreshes an expired token before handing it out', async () => {
    await sql`update passport.connections set expires_at = now() - interval '1 minute'`.execute(
      svc.db.kysely,
    );
    const before = (await provider.issued()).length;
    const token = await api(
      'POST',
      '/tokens',
      { provider: 'forge', user: 'ada@example.com' },
      await asService('Ada@Example.com'),
    );
    expect(token.status).toBe(200);
    const issued = await provider.issued();
    expect(issued).toHaveLength(before + 1);
    expect(issued.at(-1)!.grantType).toBe('refresh_token');
    expect(token.body.data.accessToken).toBe(issued.at(-1)!.accessToken);
    expect(new Date(token.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses a service a token of anyone but the person it acts for', async () => {
    for (const actingFor of [undefined, 'bob@example.com', 'ada@example.com.evil']) {
      const res = await api(
        'POST',
        '/tokens',
        { provider: 'forge', user: 'ada@example.com' },
        await asService(actingFor),
      );
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        code: 'FORBIDDEN',
        message: 'A service may only obtain the delegated token of the person it acts for',
      });
    }
  });

  it('answers 404 for a user who never connected', async () => {
    const res = await api(
      'POST',
      '/tokens',
      { provider: 'forge', user: 'bob@example.com' },
      await asService('bob@example.com'),
    );
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/bob@example.com has not connected forge/);
  });

  it('refuses a callback whose state belongs to no session of this browser', async () => {
    const connect = await ada.get(`${base}${PREFIX}/providers/forge/connect`);
    const callbackUrl = location(await ada.get(location(connect)));
    const stranger = await fetch(callbackUrl, { redirect: 'manual' });
    expect(stranger.status).toBe(401);
    // The state is spent: the right browser cannot use it afterwards either.
    expect((await ada.get(callbackUrl)).status).toBe(400);
  });

  it('refuses /connect to a key', async () => {
    const res = await api('GET', '/providers/forge/connect');
    expect(res.status).toBe(403);
  });
});
