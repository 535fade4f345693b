import { signIdentity, type Identity } from '@platform/core';
import { useService } from '@platform/testing';
import { idOfLabel, labelOf } from '../src/domain/origins';
import { originConfig } from '../src/config/origins';
import { safePath } from '../src/domain/visitors';
import { ADA, backendsUnderTest, SESSION_SECRET } from './backends-helpers';

// Apps and previews on origins of their own (issue 32), as the gateway routes them by Host:
// <label>.apps.localhost and <label>.preview.localhost. Authentication on.
const b = useService(backendsUnderTest, { scope: 'all' });

const PLATFORM = 'localhost:3000';
const BOB: Identity = { kind: 'user', email: 'bob@example.com', name: 'Bob', sessionId: 's2', role: 'member', groups: [] }; // prettier-ignore

const FILES = {
  '/app/main.tsx': 'document.body.textContent = "page";',
  '/app/api/index.js': `export default {
    async fetch(request, env) {
      const url = new URL(request.url);
      if (url.pathname === '/cookie')
        return new Response('set', { headers: [['set-cookie', 'theme=dark; Domain=apps.localhost; Path=/'], ['set-cookie', 'n=1']] });
      return Response.json({ url: request.url, auth: env.auth, user: request.headers.get('x-stage-user'), cookie: request.headers.get('cookie'), basePath: env.app.basePath });
    },
  };`,
};

async function published(fields: Record<string, unknown> = {}) {
  const { sid, session } = await b.publish(FILES);
  await b.api('POST', `/sessions/${session}/render`, { entry: '/app/main.tsx' });
  if (Object.keys(fields).length) await b.api('PATCH', `/apps/${sid}`, fields);
  return { sid, session, host: `${labelOf(sid)}.apps.localhost:3000` };
}

const as = async (identity: Identity) => ({
  'x-platform-identity': await signIdentity(SESSION_SECRET, identity),
});

const get = (host: string, url: string, headers: Record<string, string> = {}, method = 'GET') =>
  b.s.svc.app.inject({ method: method as 'GET', url, headers: { host, ...headers } });

/**
 * Signs `who` in to the app's (or preview's) origin through the platform, as a browser does: the
 * origin sends it away with a state (and its cookie), the platform hands a token back for that
 * state, the origin sets its visitor cookie.
 */
async function signIn(start: string, host: string, who: Identity, to = '/') {
  const leave = await get(host, to);
  const away = new URL(String(leave.headers.location));
  expect([leave.statusCode, away.origin, away.pathname]).toEqual([302, `http://${PLATFORM}`, `${start}/__signin`]); // prettier-ignore
  const state = String(leave.headers['set-cookie']).split(';')[0];
  expect(state).toMatch(/^stage_handoff=[\w-]{32}$/);
  const handoff = await get(PLATFORM, `${away.pathname}${away.search}`, await as(who));
  expect(handoff.statusCode).toBe(302);
  const target = new URL(String(handoff.headers.location));
  expect(target.host).toBe(host);
  const back = await get(host, `${target.pathname}${target.search}`, { cookie: state });
  expect([back.statusCode, back.headers.location]).toEqual([302, to]);
  const [cookie, cleared] = back.headers['set-cookie'] as string[];
  // *.localhost keeps Secure cookies: partitioned, so that a preview framed by the platform has it.
  expect(cookie).toMatch(/^stage_visitor=[^;]+; Max-Age=3600; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/); // prettier-ignore
  expect(cleared).toMatch(/^stage_handoff=; Max-Age=0/);
  return { cookie: cookie.split(';')[0], token: target.searchParams.get('token')!, state };
}

describe('labels and configuration', () => {
  it('maps ids to host labels one to one, whatever their case', () => {
    expect(labelOf('AbC12345')).toBe('4162433132333435');
    expect(labelOf('abc12345')).not.toBe(labelOf('ABC12345'));
    expect(idOfLabel(labelOf('AbC12345'))).toBe('AbC12345');
    for (const bad of ['', 'zz', '416', '2f2f', 'x'.repeat(70)]) expect(idOfLabel(bad)).toBeNull();
  });

  it('refuses domains that are not, or that overlap', () => {
    expect(originConfig({})).toMatchObject({ appsDomain: 'apps.localhost', previewDomain: 'preview.localhost' }); // prettier-ignore
    expect(() => originConfig({ STAGE_APPS_DOMAIN: 'apps example' })).toThrow('STAGE_APPS_DOMAIN');
    expect(() => originConfig({ STAGE_APPS_DOMAIN: 'x.preview.localhost' })).toThrow('must not overlap'); // prettier-ignore
    expect(() => originConfig({ PUBLIC_URL: 'https://p.example.com/path' })).toThrow('PUBLIC_URL');
    expect(() => originConfig({ STAGE_APPS_DOMAIN: 'localhost' })).toThrow('must be a subdomain');
    expect(() => originConfig({ STAGE_APPS_DOMAIN: 'apps.example.com' })).toThrow('PUBLIC_URL must be set'); // prettier-ignore
    const production = { STAGE_APPS_DOMAIN: 'apps.example.com', STAGE_PREVIEW_DOMAIN: 'preview.example.com', PUBLIC_URL: 'https://platform.example.com' }; // prettier-ignore
    expect(originConfig(production)).toMatchObject({ appsDomain: 'apps.example.com', publicUrl: 'https://platform.example.com' }); // prettier-ignore
  });
});

describe('a private app (the default)', () => {
  it('sends a visitor to sign in through the platform, and back with a cookie of its own origin', async () => {
    const { sid, host } = await published();
    const app = (await b.s.svc.app.inject({ method: 'GET', url: `/api/v1/stage/apps/${sid}`, headers: { host: PLATFORM, ...(await as(ADA)) } })).json().data; // prettier-ignore
    expect(app).toMatchObject({ visibility: 'private', origin: `http://${host}`, scopes: expect.arrayContaining(['inference:invoke', 'communication:write']) }); // prettier-ignore

    const page = await get(host, '/deep/page?x=1');
    expect([page.statusCode, page.headers.location]).toEqual([302, expect.stringMatching(`^http://${PLATFORM}/app/${sid}/__signin\\?to=%2Fdeep%2Fpage%3Fx%3D1&state=[\\w-]{32}$`)]); // prettier-ignore
    const api = await get(host, '/api/who');
    expect([api.statusCode, api.json().error.code]).toEqual([401, 'UNAUTHORIZED']);

    const { cookie } = await signIn(`/app/${sid}`, host, ADA, '/deep/page?x=1');
    expect((await get(host, '/', { cookie })).statusCode).toBe(200);
    const who = (await get(host, '/api/who%3Fx/y?q=1', { cookie: `${cookie}; mine=1` })).json();
    expect(who).toEqual({
      url: `http://${host}/who%3Fx/y?q=1`,
      auth: { kind: 'user', email: 'ada@example.com', name: 'Ada' },
      user: 'ada@example.com',
      // Its own cookies reach it (the visitor's sign-in is the platform's: not forwarded).
      cookie: 'mine=1',
      basePath: '/api',
    });
  });

  it('takes a hand-off token only on the origin it was made for, and only as it was signed', async () => {
    const one = await published();
    const two = await published();
    const { token, cookie, state } = await signIn(`/app/${one.sid}`, one.host, ADA);
    const elsewhere = await get(two.host, `/__platform/signin?token=${token}`, { cookie: state });
    expect([elsewhere.statusCode, elsewhere.headers['set-cookie']]).toEqual([400, undefined]);
    const tampered = await get(one.host, `/__platform/signin?token=${token.slice(0, -2)}xx`, { cookie: state }); // prettier-ignore
    expect(tampered.statusCode).toBe(400);
    // Only in the browser that left with its state: a link to someone's token, a replay, are not.
    expect((await get(one.host, `/__platform/signin?token=${token}`)).statusCode).toBe(400);
    const otherState = { cookie: 'stage_handoff=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
    expect((await get(one.host, `/__platform/signin?token=${token}`, otherState)).statusCode).toBe(400); // prettier-ignore
    expect((await get(one.host, `/__platform/signin?token=${token}`, { cookie: state })).statusCode).toBe(302); // prettier-ignore
    // A hand-off not started by the origin (no state) just sends the person there.
    const unstarted = await get(PLATFORM, `/app/${one.sid}/__signin?to=%2Fy`, await as(ADA));
    expect([unstarted.statusCode, unstarted.headers.location]).toEqual([
      302,
      `http://${one.host}/y`,
    ]);
    // A visitor cookie of one app means nothing to another.
    expect((await get(two.host, '/', { cookie })).statusCode).toBe(302);
    // Only a person signs in; an unknown app is 404.
    const key = await get(PLATFORM, `/app/${one.sid}/__signin`, await as({ kind: 'service', name: 'x' })); // prettier-ignore
    expect(key.statusCode).toBe(403);
    expect((await get(PLATFORM, '/app/nope1234/__signin', await as(ADA))).statusCode).toBe(404);
    // Signing out clears the cookie.
    const out = await get(one.host, '/__platform/signout', { cookie });
    expect(String(out.headers['set-cookie'])).toMatch(/^stage_visitor=; Max-Age=0/);
  });

  it('answers with its own policy: fetches and forms to itself, framed by the platform only', async () => {
    const { sid, host } = await published({ connectOrigins: ['https://api.example.com'] });
    const { cookie } = await signIn(`/app/${sid}`, host, ADA);
    const page = await get(host, '/', { cookie });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://api.example.com");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'self' http://localhost:*");
    expect(csp).not.toContain('sandbox');
    // Cookies the backend sets are its origin's own: a Domain attribute is dropped.
    const set = await get(host, '/api/cookie', { cookie });
    expect(set.headers['set-cookie']).toEqual(['theme=dark; Path=/', 'n=1']);
  });
});

describe('a public app', () => {
  it('has anonymous visitors, and its backend is told so', async () => {
    const { host } = await published({ visibility: 'public' });
    expect((await get(host, '/')).statusCode).toBe(200);
    const who = (await get(host, '/api/', {}, 'POST')).json();
    expect(who.auth).toEqual({ kind: 'anonymous', email: null, name: null });
  });
});

describe('on the platform origin', () => {
  it('redirects the old addresses, and still serves API clients at /stage/<sid>/api', async () => {
    const { sid, host } = await published();
    const old = await get(PLATFORM, `/app/${sid}/a/b?c=d`);
    expect([old.statusCode, old.headers.location]).toEqual([302, `http://${host}/a/b?c=d`]);
    const api = await get(PLATFORM, `/stage/${sid}/api/x`, await as(ADA));
    expect(api.json()).toMatchObject({
      url: `http://${PLATFORM}/x`,
      basePath: `/stage/${sid}/api`,
    });
    // A backend's cookies never land on the platform's origin.
    expect((await get(PLATFORM, `/stage/${sid}/api/cookie`, await as(ADA))).headers['set-cookie']).toBeUndefined(); // prettier-ignore
  });
});

describe('a preview', () => {
  it("is its session's owners': others are refused at the hand-off", async () => {
    const session = (await b.s.svc.app.inject({ method: 'POST', url: '/api/v1/stage/sessions', headers: await as(ADA) })).json().data.id; // prettier-ignore
    await b.s.svc.app.inject({ method: 'POST', url: `/api/v1/stage/sessions/${session}/push`, payload: { files: { '/app/main.tsx': 'document.title = "p";' } }, headers: await as(ADA) }); // prettier-ignore
    await b.s.svc.app.inject({ method: 'POST', url: `/api/v1/stage/sessions/${session}/render`, payload: { entry: '/app/main.tsx' }, headers: await as(ADA) }); // prettier-ignore
    const status = (await b.s.svc.app.inject({ url: `/api/v1/stage/sessions/${session}/status`, headers: { host: PLATFORM, ...(await as(ADA)) } })).json().data; // prettier-ignore
    const host = `${labelOf(session)}.preview.localhost:3000`;
    expect(status.origin).toBe(`http://${host}`);
    expect((await get(host, '/')).statusCode).toBe(302);
    const refused = await get(PLATFORM, `/preview/${session}/__signin`, await as(BOB));
    expect([refused.statusCode, refused.json().error.message]).toEqual([403, expect.stringContaining('ownership')]); // prettier-ignore
    const { cookie } = await signIn(`/preview/${session}`, host, ADA);
    const page = await get(host, '/', { cookie });
    expect(page.statusCode).toBe(200);
    // No app serves it: no backend.
    expect((await get(host, '/api/x', { cookie })).statusCode).toBe(404);
  });
});

describe('what a visitor cannot be made to do', () => {
  it('comes back only to a path of the origin it signed in to', () => {
    for (const [to, path] of [
      ['/a/b?c=d#e', '/a/b?c=d#e'],
      ['/\t/evil.com', '/'],
      ['//evil.com', '/'],
      ['/\\evil.com', '/'],
      ['https://evil.com/', '/'],
      ['/%09/evil.com', '/%09/evil.com'],
      ['/中文', '/%E4%B8%AD%E6%96%87'],
      [42, '/'],
    ] as const)
      expect([to, safePath(to)]).toEqual([to, path]);
  });

  it("is not another app's visitor when a sibling origin sends its cookie, nor with a planted one", async () => {
    const { sid, host } = await published();
    const { cookie } = await signIn(`/app/${sid}`, host, ADA);
    const fromSibling = { cookie, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' };
    expect((await get(host, '/api/who', fromSibling)).statusCode).toBe(401);
    expect((await get(host, '/api/who', { ...fromSibling, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200); // prettier-ignore
    // A link from elsewhere is a navigation: the visitor is who they are.
    expect((await get(host, '/', { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).statusCode).toBe(200); // prettier-ignore
    // A form posted from elsewhere is not (nor a POST without an Origin of its own).
    expect((await get(host, '/api/who', { cookie, origin: 'http://evil.test' }, 'POST')).statusCode).toBe(401); // prettier-ignore
    // A second stage_visitor (a sibling's Domain=apps.localhost cookie): neither is believed.
    expect((await get(host, '/', { cookie: `${cookie}; ${cookie.replace(/=.*/, '=planted')}` })).statusCode).toBe(302); // prettier-ignore
  });

  it('hands nobody to a public app, and finds no preview of a session that is not there', async () => {
    const { sid, host } = await published({ visibility: 'public' });
    const handoff = await get(PLATFORM, `/app/${sid}/__signin?to=%2Fx`, await as(ADA));
    expect([handoff.statusCode, handoff.headers.location]).toEqual([302, `http://${host}/x`]);
    expect((await get(PLATFORM, '/preview/nosuch12/__signin', await as(ADA))).statusCode).toBe(404);
  });

  it("never serves an origin's route on the platform's host, however the path is spelled", async () => {
    const { sid } = await published({ visibility: 'public' });
    const label = labelOf(sid);
    for (const url of [
      `/%5F_apps/${label}/`,
      `/%5f%5fapps/${label}/api/who`,
      `/__apps/${label}/`,
      `/__apps%2F${label}/`,
    ]) {
      // prettier-ignore
      const res = await get(PLATFORM, url);
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
    // Nor one app's under another's host.
    const other = await published({ visibility: 'public' });
    const res = await get(other.host, `/__apps/${label}/api/who`);
    expect(res.statusCode).toBe(404);
  });
});

describe('hosts under the claimed domains', () => {
  it("are all the sandbox's: a name that is no label finds nothing, never a platform page", async () => {
    for (const host of [
      'a.b.apps.localhost:3000',
      'apps.localhost',
      'zz.preview.localhost',
      '4142.apps.localhost',
    ]) {
      // prettier-ignore
      const res = await get(host, '/api/v1/stage/apps');
      expect([host, res.statusCode, res.body]).toEqual([host, 404, expect.stringContaining('Nothing is published at this address')]); // prettier-ignore
    }
  });
});
