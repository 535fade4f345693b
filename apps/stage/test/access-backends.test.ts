import { useService } from '@platform/testing';
import { expectForbidden, stageWithAuth, type Who } from './access-helpers';

// App backends (issue 31): viewers may GET and HEAD, members anything else; each backend reaches
// only its own app's kv, whatever it sends. Workflow runs are for members.
const h = useService(stageWithAuth, { scope: 'all' });

const BACKEND = `
import { kv } from '@stage/compute';
export default {
  async fetch(request) {
    const key = new URL(request.url).searchParams.get('key') ?? 'secret';
    if (request.method === 'GET' || request.method === 'HEAD')
      return new Response(JSON.stringify({ value: await kv.get(key) }));
    await kv.set(key, await request.json());
    return new Response(JSON.stringify({ stored: key }));
  },
};`;

// What a hostile backend tries: other apps' keys, the bridge called by hand, a forged env.
const HOSTILE = `
import { kv } from '@stage/compute';
const tried = (p) => p.then((v) => v, (e) => e.name + ': ' + e.message);
export default {
  async fetch(request, env) {
    const victim = new URL(request.url).searchParams.get('victim');
    const forged = Object.freeze({ auth: env.auth, app: { ...env.app, sid: victim } });
    const out = {
      plain: await kv.get('secret'),
      prefixed: await kv.get(victim + ':secret'),
      climbing: await kv.get('../' + victim + '/secret'),
      bridge: await tried(__stage_call(null, 'kv.get', ['secret'])),
      forgedEnv: await tried(__stage_call(forged, 'kv.get', ['secret'])),
      forgedToken: await tried(__stage_call({ token: victim }, 'kv.set', ['secret', 'pwned'])),
      ownEnv: await tried(__stage_call(env, 'kv.set', ['secret', 'mine'])),
      listed: await kv.list({ prefix: '' }),
    };
    await kv.set('secret', 'overwritten?');
    return new Response(JSON.stringify(out));
  },
};`;

const backend = (sid: string, query = '') => `/stage/${sid}/api/kv${query}`;

describe('app backends', () => {
  it('lets viewers GET and HEAD, members write, and refuses the rest without running it', async () => {
    const app = await h.app({ '/app/api/index.js': BACKEND });
    expect((await h.raw('owner', 'POST', backend(app.sid), '"v1"')).status).toBe(200);
    for (const who of ['viewer', 'stranger', 'owner', 'admin', 'ownerRead'] as const) {
      const res = await h.raw(who, 'GET', backend(app.sid));
      expect([who, res.status, res.body]).toEqual([who, 200, JSON.stringify({ value: 'v1' })]);
      expect((await h.raw(who, 'HEAD', backend(app.sid))).status).toBe(200);
    }
    const denied: Array<[Who, number, RegExp]> = [
      ['viewer', 403, /^viewer@example\.com may not invoke stage\.backend: it needs the role member/], // prettier-ignore
      ['ownerRead', 403, /may not invoke stage\.backend: it needs the scope stage:write$/],
      ['ownerCatalog', 403, /it needs the scope stage:write$/],
      ['anonymous', 401, /^Authentication required/],
    ];
    for (const [who, status, message] of denied)
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await h.raw(who, method, backend(app.sid), '"hijacked"');
        expect([who, method, res.status]).toEqual([who, method, status]);
        expect(res.json().error.message).toMatch(message);
      }
    expect((await h.raw('anonymous', 'OPTIONS', backend(app.sid))).status).toBe(401);
    expect((await h.raw('admin', 'GET', backend(app.sid))).body).toBe(JSON.stringify({ value: 'v1' })); // prettier-ignore
    // Members who use the app write through it.
    expect((await h.raw('stranger', 'PUT', backend(app.sid), '"v2"')).status).toBe(200);
    expect((await h.raw('owner', 'GET', backend(app.sid))).body).toBe(JSON.stringify({ value: 'v2' })); // prettier-ignore
  });

  it("attack: a backend no longer reads or writes another app's kv", async () => {
    const victim = await h.app({ '/app/api/index.js': BACKEND });
    expect((await h.raw('owner', 'POST', backend(victim.sid), '"the owner\'s secret"')).status).toBe(200); // prettier-ignore
    // Its own app, whatever it sends: its own store only.
    const session = await h.session({ '/app/api/index.js': HOSTILE }, 'stranger', {});
    const own = (await h.as('stranger').post('/apps', { sessionId: session, name: 'hostile' })).body.data; // prettier-ignore
    const res = await h.raw('stranger', 'POST', backend(own.sid, `?victim=${victim.sid}`), '');
    expect(res.status).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ plain: null, prefixed: null, climbing: null, bridge: null });
    expect(out.forgedEnv).toMatch(/^TypeError: kv\.get acts for the caller: pass the env/);
    expect(out.forgedToken).toMatch(/^TypeError: kv\.set acts for the caller/);
    expect(out.ownEnv).toBeNull();
    expect(out.listed).toEqual({ keys: ['secret'], cursor: null });
    // Nor by running its code as the victim: its session and the app are the owner's.
    expectForbidden(await h.as('stranger').post(`/sessions/${victim.sessionId}/push`, { files: { '/app/api/index.js': HOSTILE } }), /may not update stage\.session/); // prettier-ignore
    expectForbidden(await h.as('stranger').post(`/apps/${victim.sid}/publish`, { sessionId: session }), /may not update stage\.app/); // prettier-ignore
    expect((await h.as('stranger').post(`/apps/${own.sid}/publish`, { sessionId: victim.sessionId })).status).toBe(403); // prettier-ignore
    // The victim's store is as its owner left it, and holds nothing of the other app's.
    const read = await h.raw('owner', 'GET', backend(victim.sid));
    expect(read.body).toBe(JSON.stringify({ value: "the owner's secret" }));
    expect((await h.raw('owner', 'GET', backend(own.sid))).json()).toMatchObject({ listed: { keys: ['secret'] } }); // prettier-ignore
  });
});

describe('workflow runs', () => {
  const WORKFLOWS = JSON.stringify({
    version: 1,
    workflows: { hello: { steps: [{ respond: { hello: '{{ auth.email }}' } }] } },
  });

  it('are for members: the users of an app run its workflows; viewers and read keys may not', async () => {
    const app = await h.app({ '/app/platform.workflows.json': WORKFLOWS });
    const run = (who: Who) => h.as(who, '/api/v1/run').post(`/${app.sid}/hello`, {});
    expect((await run('stranger')).body.data).toEqual({ hello: 'stranger@example.com' });
    expectForbidden(await run('viewer'), /^viewer@example\.com may not invoke stage\.workflow: it needs the role member/); // prettier-ignore
    expectForbidden(await run('ownerRead'), /needs the scope stage:write$/);
    expect((await run('anonymous')).status).toBe(401);
    const runs = await h.adminReads(`/apps/${app.sid}/runs`);
    expect(runs.map((r: { caller: string }) => r.caller)).toEqual(['stranger@example.com']);
  });
});
