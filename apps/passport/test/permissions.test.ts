import type { Json, ServiceUnderTest } from '@platform/testing';
import { newApiKey } from '../src/domain/keys';
import { passport } from '../src/index';
import {
  ADA,
  authEnv,
  browser,
  PREFIX,
  signIn,
  startIdp,
  startPassport,
  type Browser,
  type Idp,
} from './helpers';

// AUTH_ADMINS names Grace: Ada is an ordinary user.
const BOOTSTRAP = newApiKey();
const GRACE = { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' };

let idp: Idp;
let svc: ServiceUnderTest;
let base: string;
let ada: Browser;
let grace: Browser;
beforeAll(async () => {
  idp = await startIdp();
  const env = authEnv(idp, {
    PLATFORM_API_KEY: BOOTSTRAP,
    AUTH_ADMINS: ' Grace@Example.com ',
    OAUTH_FORGE: 'forge-secret',
  });
  ({ svc, base } = await startPassport(env));
  await idp.setClaims(ADA);
  ada = (await signIn(base, browser())).browser;
  await idp.setClaims(GRACE);
  grace = (await signIn(base, browser())).browser;
});
afterAll(async () => {
  await svc.close();
  await idp.stop();
});

type Caller = Browser | string;
/** A call as a browser (its cookie) or with an API key. */
async function call(who: Caller, method: string, path: string, body?: object) {
  const init: RequestInit = {
    method,
    headers: {
      ...(typeof who === 'string' ? { 'x-api-key': who } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  };
  const res =
    typeof who === 'string'
      ? await fetch(`${base}${PREFIX}${path}`, init)
      : await who.request(`${base}${PREFIX}${path}`, init);
  return { status: res.status, body: (await res.json()) as Json };
}
const me = async (b: Browser) => (await call(b, 'GET', '/me')).body.data;
const forge = (name: string) => ({
  name,
  type: 'oauth2',
  clientId: 'c',
  clientSecret: 'env:OAUTH_FORGE',
  authorizeUrl: 'https://forge.example.com/authorize',
  tokenUrl: 'https://forge.example.com/token',
});

describe('providers', () => {
  it('are registered and deleted by admins only', async () => {
    const adaKey = (await call(ada, 'POST', '/keys', { name: 'ada-providers' })).body.data.key;
    for (const who of [ada, adaKey]) {
      const refused = await call(who, 'POST', '/providers', forge('nope'));
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect((await call(grace, 'POST', '/providers', forge('forge'))).status).toBe(201);
    expect((await call(ada, 'GET', '/providers/forge')).status).toBe(200);
    expect((await call(ada, 'DELETE', '/providers/forge')).status).toBe(403);
    expect((await call(adaKey, 'DELETE', '/providers/forge')).status).toBe(403);
    // An admin's key needs the scope admin for platform configuration.
    const plain = (await call(grace, 'POST', '/keys', { name: 'grace-plain' })).body.data.key;
    const denied = await call(plain, 'DELETE', '/providers/forge');
    expect(denied.body.error.message).toMatch(/needs the scope admin/);
    const graceKey = (
      await call(grace, 'POST', '/keys', { name: 'grace-providers', scopes: ['admin'] })
    ).body.data.key;
    expect((await call(graceKey, 'DELETE', '/providers/forge')).status).toBe(200);
    expect((await call(BOOTSTRAP, 'POST', '/providers', forge('forge2'))).status).toBe(201);
  });
});

describe('keys', () => {
  it('tell any key what it is, and only a key that reads passport whose it is', async () => {
    const ingest = (
      await call(ada, 'POST', '/keys', { name: 'ada-ingest', scopes: ['pulse:ingest'] })
    ).body.data.key;
    const who = await call(ingest, 'GET', '/me');
    expect(who.status).toBe(200);
    // A write-only key ships in web pages: it learns nothing of its owner or team.
    expect(who.body.data).toEqual({
      kind: 'key',
      keyId: expect.any(String),
      name: 'ada-ingest',
      role: 'member',
      scopes: ['pulse:ingest'],
      owner: null,
      team: null,
      teams: [],
    });
    expect(JSON.stringify(who.body)).not.toContain('ada@example.com');
    const reader = (await call(ada, 'POST', '/keys', { name: 'ada-reader', scopes: ['*:read'] }))
      .body.data.key;
    expect((await call(reader, 'GET', '/me')).body.data.owner).toBe('ada@example.com');
    // Everything else of the identity service still needs its scopes.
    expect((await call(ingest, 'GET', '/keys')).status).toBe(403);
  });

  it('lets a user manage only the keys they created, and an admin every key', async () => {
    const mine = await call(ada, 'POST', '/keys', { name: 'ada-own' });
    expect(mine.status).toBe(201);
    expect(mine.body.data.createdBy).toBe('ada@example.com');
    const theirs = (await call(grace, 'POST', '/keys', { name: 'grace-own' })).body.data;

    const listed = (await call(ada, 'GET', '/keys')).body.data.map((k: { name: string }) => k.name);
    expect(listed).toContain('ada-own');
    expect(listed).not.toContain('grace-own');
    expect(listed).not.toContain('PLATFORM_API_KEY');
    const peek = await call(ada, 'GET', '/keys/grace-own');
    expect(peek.status).toBe(403);
    expect(peek.body.error.message).toBe(
      'ada@example.com may not read passport.key: it needs ownership (it belongs to grace@example.com)',
    );
    expect((await call(ada, 'DELETE', `/keys/${theirs.id}`)).status).toBe(403);
    expect((await call(ada, 'DELETE', '/keys/PLATFORM_API_KEY')).status).toBe(403);
    expect((await call(grace, 'GET', `/keys/${theirs.id}`)).body.data.revokedAt).toBeNull();
    expect((await call(ada, 'DELETE', '/keys/ada-own')).body.data.revokedAt).not.toBeNull();

    // An admin, and a key with the scope admin an admin made, see and revoke every key.
    const graceKey = (
      await call(grace, 'POST', '/keys', { name: 'grace-admin', scopes: ['admin'] })
    ).body.data.key;
    const adaKey = (await call(ada, 'POST', '/keys', { name: 'ada-other' })).body.data;
    const all = (await call(graceKey, 'GET', '/keys')).body.data.map(
      (k: { name: string }) => k.name,
    );
    expect(all).toEqual(expect.arrayContaining(['ada-other', 'grace-own', 'PLATFORM_API_KEY']));
    expect((await call(graceKey, 'DELETE', `/keys/${adaKey.id}`)).status).toBe(200);
    expect((await call(grace, 'GET', '/keys/ada-own')).status).toBe(200);
  });

  it('refuses a key without the scope admin: it may not create, list or revoke keys', async () => {
    const made = (await call(ada, 'POST', '/keys', { name: 'ada-ci' })).body.data;
    for (const [method, path, body] of [
      ['POST', '/keys', { name: 'minted' }],
      ['GET', '/keys', undefined],
      ['GET', `/keys/${made.id}`, undefined],
      ['DELETE', `/keys/${made.id}`, undefined],
    ] as const) {
      const res = await call(made.key, method, path, body);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    // So is a key the bootstrap key made without the scope admin.
    const minted = (await call(BOOTSTRAP, 'POST', '/keys', { name: 'by-bootstrap' })).body.data;
    expect((await call(minted.key, 'GET', '/keys')).status).toBe(403);
    expect((await call(BOOTSTRAP, 'GET', '/keys')).status).toBe(200);
  });
});

describe('sessions', () => {
  it('lists every session to admins, only their own to users, none to other keys', async () => {
    const adaSession = (await me(ada)).sessionId;
    const graceSession = (await me(grace)).sessionId;
    const own = (await call(ada, 'GET', '/sessions')).body.data.map((s: { id: string }) => s.id);
    expect(own).toContain(adaSession);
    expect(own).not.toContain(graceSession);
    // Anyone but an admin sees only their own, whatever email is asked for.
    const other = await call(ada, 'GET', '/sessions?email=grace@example.com');
    expect(other.body.data.map((s: { email: string }) => s.email)).toEqual(
      own.map(() => 'ada@example.com'),
    );
    const adaKey = (await call(ada, 'POST', '/keys', { name: 'ada-sessions' })).body.data.key;
    expect((await call(adaKey, 'GET', '/sessions')).status).toBe(403);
    for (const who of [grace, BOOTSTRAP]) {
      const all = (await call(who, 'GET', '/sessions')).body.data.map((s: { id: string }) => s.id);
      expect(all).toEqual(expect.arrayContaining([adaSession, graceSession]));
    }
  });

  it('lets a user end only their own session, and an admin any', async () => {
    const victim = (await me(grace)).sessionId;
    expect((await call(ada, 'DELETE', `/sessions/${victim}`)).status).toBe(403);
    const adaKey = (await call(ada, 'POST', '/keys', { name: 'ada-end' })).body.data.key;
    expect((await call(adaKey, 'DELETE', `/sessions/${victim}`)).status).toBe(403);
    expect((await me(grace)).sessionId).toBe(victim);

    await idp.setClaims(ADA);
    const other = (await signIn(base, browser())).browser;
    const target = (await me(other)).sessionId;
    expect((await call(grace, 'DELETE', `/sessions/${target}`)).status).toBe(200);
    expect((await other.get(`${base}${PREFIX}/me`)).status).toBe(401);
  });
});

it('refuses an AUTH_ADMINS entry that is not an email, naming the variable', () => {
  expect(() => passport.config({ AUTH_ADMINS: 'ada@example.com,admin' })).toThrow(/AUTH_ADMINS/);
});
