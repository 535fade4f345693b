import { sql } from '@platform/db';
import { sleep, type Json, type ServiceUnderTest } from '@platform/testing';
import {
  authEnv,
  browser,
  everyStoredText,
  location,
  PREFIX,
  signIn,
  startIdp,
  startPassport,
  type Idp,
  ADA,
} from './helpers';

let idp: Idp;
let svc: ServiceUnderTest;
let base: string;
beforeAll(async () => {
  idp = await startIdp();
  ({ svc, base } = await startPassport(authEnv(idp)));
});
afterAll(async () => {
  await svc.close();
  await idp.stop();
});
beforeEach(() => idp.setClaims(ADA));

const count = async (table: 'sessions' | 'connections') =>
  Number(
    (
      await sql<{ n: string }>`select count(*) as n from ${sql.table(`passport.${table}`)}`.execute(
        svc.db.kysely,
      )
    ).rows[0].n,
  );

describe('sign-in', () => {
  it('signs in: the cookie is set, /me answers the user, the session is listed', async () => {
    const { browser: b, callback, login } = await signIn(base, browser(), '?returnTo=/catalog/x');
    const authorize = new URL(location(login));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${base}${PREFIX}/callback`);
    expect(callback.status).toBe(302);
    expect(location(callback)).toBe('/catalog/x');
    const setCookie = callback.headers
      .getSetCookie()
      .find((c) => c.startsWith('platform_session='));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // plain http on loopback
    const me = await (await b.get(`${base}${PREFIX}/me`)).json();
    expect(me.data).toEqual({
      kind: 'user',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      sessionId: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      role: 'member',
      groups: [],
      teams: [],
    });
    const sessions = await (await b.get(`${base}${PREFIX}/sessions?email=ADA@example.com`)).json();
    const mine = sessions.data.find((s: { id: string }) => s.id === me.data.sessionId);
    expect(mine).toMatchObject({ email: 'ada@example.com', subject: 'johndoe', active: true });
    expect(JSON.stringify(sessions)).not.toContain(await b.cookie(base, 'platform_session'));
    // Only the token's hash is stored, and the provider's tokens only encrypted.
    const stored = await everyStoredText(svc);
    expect(stored).not.toContain(await b.cookie(base, 'platform_session'));
    const signin = (await b.get(`${base}${PREFIX}/connections`)).json();
    expect((await signin).data).toEqual([expect.objectContaining({ provider: 'signin' })]);
  });

  it('answers 401 to an API request without credentials', async () => {
    const res = await fetch(`${base}${PREFIX}/me`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as Json).error.code).toBe('UNAUTHORIZED');
  });

  it('refuses a state that does not match the browser, and makes nothing', async () => {
    const b = browser();
    const before = await count('sessions');
    const login = await b.get(`${base}${PREFIX}/login`);
    const callbackUrl = location(await b.get(location(login)));
    const forged = callbackUrl.replace(/state=[^&]+/, 'state=forged-state');
    const res = await b.get(forged);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/state does not match/);
    expect(await count('sessions')).toBe(before);
    // Only that answer is refused: the sign-in the browser started still completes.
    expect((await b.get(callbackUrl)).status).toBe(302);
  });

  it("signs in from the second of two tabs: the first tab's answer spends nothing", async () => {
    const b = browser();
    const first = location(await b.get(location(await b.get(`${base}${PREFIX}/login`))));
    const second = location(
      await b.get(location(await b.get(`${base}${PREFIX}/login?returnTo=/2`))),
    );
    const stale = await b.get(first);
    expect(stale.status).toBe(400);
    expect((await stale.json()).error.message).toMatch(/state does not match/);
    const done = await b.get(second);
    expect(done.status).toBe(302);
    expect(location(done)).toBe('/2');
  });

  it('refuses a callback from a browser that started no sign-in', async () => {
    const { callbackUrl } = await signIn(base);
    const other = await fetch(callbackUrl, { redirect: 'manual' });
    expect(other.status).toBe(400);
    expect(((await other.json()) as Json).error.message).toMatch(/No sign-in is under way/);
  });

  it('refuses a replayed code: the state is single use', async () => {
    const { browser: b, callbackUrl, callback } = await signIn(base);
    expect(callback.status).toBe(302);
    const before = await count('sessions');
    const login = await b.get(`${base}${PREFIX}/login`); // a fresh login cookie, same old answer
    const fresh = new URL(location(login)).searchParams.get('state') as string;
    const replay = await b.get(callbackUrl.replace(/state=[^&]+/, `state=${fresh}`));
    expect(replay.status).toBe(401);
    expect((await replay.json()).error.message).toMatch(/refused|verification/);
    await b.get(`${base}${PREFIX}/login`);
    const again = await b.get(callbackUrl);
    expect(again.status).toBe(400);
    expect(await count('sessions')).toBe(before);
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    await idp.setClaims({ ...ADA, nonce: 'someone-elses-nonce' });
    const before = await count('sessions');
    const { callback } = await signIn(base);
    expect(callback.status).toBe(401);
    expect((await callback.json()).error.message).toMatch(/verification.*nonce/i);
    expect(await count('sessions')).toBe(before);
  });

  it('refuses an error answer of the provider, and an expired state', async () => {
    const b = browser();
    const login = await b.get(`${base}${PREFIX}/login`);
    const state = new URL(location(login)).searchParams.get('state');
    const denied = await b.get(`${base}${PREFIX}/callback?error=access_denied&state=${state}`);
    expect(denied.status).toBe(401);
    expect((await denied.json()).error.message).toMatch(/refused the sign-in: access_denied/);

    const login2 = await b.get(`${base}${PREFIX}/login`);
    const callbackUrl = location(await b.get(location(login2)));
    await sql`update passport.login_states set expires_at = now() - interval '1 second'`.execute(
      svc.db.kysely,
    );
    const late = await b.get(callbackUrl);
    expect(late.status).toBe(400);
    expect((await late.json()).error.message).toMatch(/longer than 10 minutes/);
  });

  it('refuses an unverified email', async () => {
    await idp.setClaims({ ...ADA, email_verified: false });
    const before = await count('sessions');
    const { callback } = await signIn(base);
    expect(callback.status).toBe(403);
    expect((await callback.json()).error.message).toMatch(/not verified/);
    expect(await count('sessions')).toBe(before);
  });

  it('refuses an email the provider does not say it verified (no email_verified claim)', async () => {
    await idp.setClaims({ email: ADA.email, name: ADA.name });
    const before = await count('sessions');
    const { callback } = await signIn(base);
    expect(callback.status).toBe(403);
    expect((await callback.json()).error.message).toMatch(/not verified/);
    expect(await count('sessions')).toBe(before);
  });

  it('ends an expired session and a revoked one at once', async () => {
    const { browser: b } = await signIn(base);
    const me = (await (await b.get(`${base}${PREFIX}/me`)).json()).data;
    const del = await b.request(`${base}${PREFIX}/sessions/${me.sessionId}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await del.json()).data).toMatchObject({ active: false, revokedAt: expect.any(String) });
    expect((await b.get(`${base}${PREFIX}/me`)).status).toBe(401);

    // A session about to expire: believed until then (the resolver's cache keeps its expiry),
    // refused from then on.
    const second = (await signIn(base)).browser;
    await sql`update passport.sessions set expires_at = now() + interval '1500 milliseconds'
      where revoked_at is null`.execute(svc.db.kysely);
    expect((await second.get(`${base}${PREFIX}/me`)).status).toBe(200);
    await sleep(1600);
    const expired = await second.get(`${base}${PREFIX}/me`);
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.message).toMatch(/session has ended/);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const { browser: b } = await signIn(base);
    const cookie = await b.cookie(base, 'platform_session');
    const out = await b.request(`${base}${PREFIX}/logout`, { method: 'POST' });
    expect((await out.json()).data).toEqual({ signedOut: true });
    expect(await b.cookie(base, 'platform_session')).toBeUndefined();
    const stale = await fetch(`${base}${PREFIX}/me`, {
      headers: { cookie: `platform_session=${cookie}` },
    });
    expect(stale.status).toBe(401);
  });

  it.each([
    ['//evil.com', '/'],
    ['https://evil.com', '/'],
    ['/\\evil.com', '/'],
    ['/%09/evil.com', '/'],
    ['/docs?x=1', '/docs?x=1'],
    ['/%E2%82%AC', '/%E2%82%AC'],
    ['/caf%C3%A9?q=%C3%A9t%C3%A9#%C3%A0', '/caf%C3%A9?q=%C3%A9t%C3%A9#%C3%A0'],
    ['/a b', '/a%20b'],
    ['/.//evil.com', '/'],
    ['/a/..//evil.com', '/'],
  ])('sends returnTo %s to %s', async (returnTo, expected) => {
    const { callback } = await signIn(
      base,
      browser(),
      `?returnTo=${encodeURIComponent(decodeURIComponent(returnTo))}`,
    );
    expect(callback.status).toBe(302);
    expect(location(callback)).toBe(expected);
  });

  it('starts a sign-in: a login cookie bound to the browser and a redirect to the provider', async () => {
    const res = await fetch(`${base}${PREFIX}/login?returnTo=%2Fx`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(location(res).startsWith(idp.url)).toBe(true);
    expect(res.headers.getSetCookie().join()).toMatch(/platform_login=.*HttpOnly/);
  });

  it('writes the sign-in to the audit trail as a durable job, with no secret in it', async () => {
    const { browser: b } = await signIn(base);
    const cookie = (await b.cookie(base, 'platform_session')) as string;
    const { rows } = await sql<{ payload: { action: string; actor: string } }>`
      select payload from passport.jobs where kind = 'audit'`.execute(svc.db.kysely);
    expect(rows.map((r) => r.payload)).toContainEqual(
      expect.objectContaining({ action: 'user.signin', actor: 'ada@example.com' }),
    );
    expect(JSON.stringify(rows)).not.toContain(cookie);
  });
});

describe('AUTH_ALLOWED_DOMAINS', () => {
  it('refuses an account of another domain with 403 and makes no session', async () => {
    const restricted = await startPassport(authEnv(idp, { AUTH_ALLOWED_DOMAINS: 'corp.example' }));
    try {
      const { callback } = await signIn(restricted.base);
      expect(callback.status).toBe(403);
      expect((await callback.json()).error).toEqual({
        code: 'FORBIDDEN',
        message: 'Accounts of example.com may not sign in here (allowed: corp.example)',
      });
      await idp.setClaims({ ...ADA, email: 'grace@corp.example' });
      expect((await signIn(restricted.base)).callback.status).toBe(302);
    } finally {
      await restricted.svc.close();
    }
  });
});
