import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIdentity } from '@platform/core';
import { backendsUnderTest, push, SESSION_SECRET, type Backends } from './backends-helpers';
import { cachedPackages } from './npm-helpers';
import { localRegistry, type LocalRegistry } from './npm-registry';

let registry: LocalRegistry;
let cacheDir: string;
let b: Backends;
beforeAll(async () => {
  registry = await localRegistry();
  cacheDir = await mkdtemp(join(tmpdir(), 'stage-npm-test-'));
  b = await backendsUnderTest({ STAGE_NPM_REGISTRY: registry.url, STAGE_NPM_CACHE_DIR: cacheDir });
});
afterAll(async () => {
  await b.s.svc.close();
  await registry.close();
  await rm(cacheDir, { recursive: true, force: true });
});

// A scoped package (`exports` with `import`), and one with a dependency of its own.
const API = `
import { Hono } from 'hono';
import { format, parse } from '@lukeed/ms';
import createDebug from 'debug';
const app = new Hono();
app.get('/durations', (c) =>
  c.json({ format: format(90_000), parse: parse('2h'), humanize: createDebug.humanize(1500) }));
export default app;
`;

/** A session file as the platform's services read it. */
async function sessionFile(session: string, path: string) {
  const headers = { 'x-platform-identity': await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' }) }; // prettier-ignore
  const res = await b.s.svc.app.inject({ method: 'GET', url: `/api/v1/stage/sessions/${session}/files${path}`, headers }); // prettier-ignore
  return { status: res.statusCode, body: res.body };
}

describe('npm packages in a backend', () => {
  it('imports them from the registry, pins them in the lock and builds again fetching nothing', async () => {
    const { sid, session } = await b.publish({
      '/app/package.json': JSON.stringify({ dependencies: { '@lukeed/ms': '^2.0.0' } }),
      '/app/api/index.ts': API,
    });
    const res = await b.call(sid, '/durations');
    expect(res.body).toContain('format');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ format: '2m', parse: 7_200_000, humanize: '2s' });
    // The scoped package's document at /@scope%2fname; debug brought ms.
    expect([...new Set(registry.requests)].sort()).toEqual([
      '/@lukeed/ms',
      '/@lukeed/ms/-/ms-2.0.2.tgz',
      '/debug',
      '/debug/-/debug-4.4.3.tgz',
      '/ms',
      '/ms/-/ms-2.1.3.tgz',
    ]);
    const lock = JSON.parse((await sessionFile(session, '/app/package-lock.json')).body);
    expect(lock.packages['']).toEqual({
      name: 'app',
      dependencies: { '@lukeed/ms': '^2.0.0', debug: '^4.4.3' },
    });
    expect(Object.keys(lock.packages)).toEqual([
      '',
      'node_modules/@lukeed/ms',
      'node_modules/debug',
      'node_modules/ms',
    ]);
    expect(lock.packages['node_modules/debug'].dependencies).toEqual({ ms: '^2.1.3' });
    expect(await cachedPackages(b.s.svc.db)).toEqual(['@lukeed/ms@2.0.2', 'debug@4.4.3', 'ms@2.1.3']); // prettier-ignore

    // The lock written is a change of the session's files: built again, from the lock and cache.
    const before = registry.requests.length;
    await push(b, session, { '/app/api/index.ts': API.replace('2h', '3h') });
    const again = await b.call(sid, '/durations');
    expect(again.json()).toMatchObject({ parse: 10_800_000 });
    expect(registry.requests.length).toBe(before);
  });

  it('fails the build naming a package the registry does not have', async () => {
    const { sid } = await b.publish({
      '/app/api/index.ts': "import pad from 'no-such-package-here';\nexport default { fetch: () => new Response(pad('x')) };", // prettier-ignore
    });
    const res = await b.call(sid, '/');
    expect(res.status).toBe(502);
    expect(res.headers['x-stage-backend-error']).toBe('build');
    expect(res.json().error.message).toBe(
      `The backend of app ${sid} failed (build): Package "no-such-package-here" was not found in the npm registry (${new URL(registry.url).host} answered 404)`,
    );
  });

  it('keeps @stage/ for the platform: an unknown one is not looked up in the registry', async () => {
    const before = registry.requests.length;
    const { sid } = await b.publish({ '/app/api/index.ts': "import x from '@stage/nope';\nexport default x;" }); // prettier-ignore
    const res = await b.call(sid, '/');
    expect(res.status).toBe(502);
    expect(res.json().error.message).toContain('"@stage/nope" cannot be imported');
    expect(registry.requests.length).toBe(before);
  });
});
