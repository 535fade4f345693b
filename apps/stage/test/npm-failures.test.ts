import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadUrl } from '@platform/testing';
import { cachedPackages, npmStage, type NpmStage } from './npm-helpers';
import { localRegistry, made, tarball, type LocalRegistry } from './npm-registry';

let registry: LocalRegistry;
let s: NpmStage;
beforeAll(async () => {
  registry = await localRegistry();
  // Made here, not real: a package whose code reaches for the server's files.
  const escape = (name: string, spec: string) =>
    made(name, '1.0.0', tarball([
      { path: 'package/package.json', data: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }) }, // prettier-ignore
      { path: 'package/index.js', data: `module.exports = require(${JSON.stringify(spec)});` },
    ])); // prettier-ignore
  registry.publish(escape('escape-up', `${'../'.repeat(40)}etc/passwd`));
  registry.publish(escape('escape-abs', '/etc/passwd'));
  registry.publish(escape('escape-undeclared', 'secret'));
  s = await npmStage(registry.url);
});
afterAll(async () => {
  await s.close();
  await registry.close();
});

const host = () => new URL(registry.url).host;
const USES_CLSX = "import clsx from 'clsx';\nconsole.log(clsx('a'));";
const page = (code: string, pkg?: object) => ({
  '/app/main.ts': code,
  ...(pkg ? { '/app/package.json': JSON.stringify(pkg) } : {}),
});

/** A render that fails: its message, which the session's status shows too. */
async function failure(stage: NpmStage, files: Record<string, string>) {
  const res = await stage.render(files, { entry: '/app/main.ts' });
  expect(res.status).toBe(400);
  const status = (await stage.api.get(`/sessions/${res.id}/status`)).body.data;
  expect(res.body.error.message).toMatch(
    /^Render of \/app\/main\.ts failed( \(\/app\/main\.ts:\d+:\d+\))?: /,
  );
  expect(res.body.error.message).toContain(`: ${status.render.error.message}`);
  return status.render.error.message as string;
}

describe('npm packages that cannot be had', () => {
  it('names a package the registry does not have, and keeps the last good output served', async () => {
    const good = await s.render(page("import clsx from 'clsx';\nconsole.log(clsx('a'));"), { entry: '/app/main.ts' }); // prettier-ignore
    expect(good.status).toBe(200);
    const bad = await s.render(page("import pad from 'left-pad-not-published';\nconsole.log(pad);"), { id: good.id, entry: '/app/main.ts' }); // prettier-ignore
    expect(bad.body.error.message).toBe(
      `Render of /app/main.ts failed: Package "left-pad-not-published" was not found in the npm registry (${host()} answered 404)`,
    );
    const status = (await s.api.get(`/sessions/${good.id}/status`)).body.data;
    expect(status.render).toMatchObject({ version: 1, error: { message: expect.stringContaining('left-pad-not-published') } }); // prettier-ignore
    expect((await s.output(good.id)).js).toContain('console.log');
  });

  it('names a package with no version matching the range asked for', async () => {
    expect(await failure(s, page(USES_CLSX, { dependencies: { clsx: '^9.0.0' } }))).toBe(
      'No version of "clsx" matches "^9.0.0" (wanted by /app/package.json); the registry has 2.1.1 as latest',
    ); // prettier-ignore
  });

  it('refuses a package.json whose range is not one, or that is not JSON', async () => {
    expect(await failure(s, page(USES_CLSX, { dependencies: { clsx: '^^1' } }))).toBe(
      '/app/package.json asks for "clsx" at "^^1", which is not a version range or a tag of the npm registry',
    ); // prettier-ignore
    const files = {
      ...page(USES_CLSX),
      '/app/package.json': '{ "dependencies": ',
    };
    expect(await failure(s, files)).toMatch(/^\/app\/package\.json is not a JSON object \(/);
  });

  it('refuses a tarball that does not match its integrity, and keeps none of it', async () => {
    registry.tampered.add('ms');
    try {
      expect(await failure(s, page("import debug from 'debug';\nconsole.log(debug.humanize(5));"))).toMatch(
        /^The tarball of "ms@2\.1\.3" does not match its integrity sha512-6FlzubTLZG3J2a\/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq\/s5xXI6\/XXP6tz7R9xAOtHnSO\/tXtF3WRTlA== \(it is sha512-\S+\): refused$/,
      ); // prettier-ignore
      expect(await cachedPackages(s.svc.db)).not.toContain('ms@2.1.3');
    } finally {
      registry.tampered.delete('ms');
    }
    const fixed = await s.render(page("import debug from 'debug';\nconsole.log(debug.humanize(5));"), { entry: '/app/main.ts' }); // prettier-ignore
    expect(fixed.status).toBe(200);
    expect(await cachedPackages(s.svc.db)).toContain('ms@2.1.3');
  });

  it.each([
    ['escape-up', `${'../'.repeat(40)}etc/passwd`],
    ['escape-abs', '/etc/passwd'],
  ])(
    'keeps a package (%s) inside the app’s packages: no other file of the server',
    async (name, spec) => {
      expect(await failure(s, page(`import x from '${name}';\nconsole.log(x);`))).toBe(
      `"${spec}" (imported by node_modules/${name}/index.js) is outside the app's npm packages: a package may import its own files and its dependencies only`,
    ); // prettier-ignore
    },
  );

  it('keeps a package from a package it does not depend on, found above the cache folder', async () => {
    // <dir>/node_modules/secret is where Node.js would look, walking up from <dir>/cache/trees/...
    const dir = await mkdtemp(join(tmpdir(), 'stage-npm-above-'));
    await mkdir(join(dir, 'node_modules', 'secret'), { recursive: true });
    await writeFile(join(dir, 'node_modules', 'secret', 'index.js'), 'module.exports = 42;');
    const above = await npmStage(registry.url, { STAGE_NPM_CACHE_DIR: join(dir, 'cache') });
    try {
      expect(await failure(above, page("import x from 'escape-undeclared';\nconsole.log(x);"))).toBe(
        `"secret" (imported by node_modules/escape-undeclared/index.js) is outside the app's npm packages: a package may import its own files and its dependencies only`,
      ); // prettier-ignore
    } finally {
      await above.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not a package: a Node.js module', async () => {
    expect(await failure(s, page("import { readFile } from 'node:fs/promises';\nconsole.log(readFile);"))).toBe(
      '"node:fs/promises" cannot be imported: it is a Node.js module, not available here',
    ); // prettier-ignore
  });
});

describe('npm limits and registries that fail', () => {
  it('refuses a package too large, and too many packages, naming the variables', async () => {
    const tight = await npmStage(registry.url, { STAGE_NPM_MAX_PACKAGE_BYTES: '50000', STAGE_NPM_MAX_PACKAGES: '1' }); // prettier-ignore
    try {
      expect(await failure(tight, page("import { create } from 'zustand';\nconsole.log(create);"))).toBe(
        '"zustand@5.1.0" is larger than 50000 bytes unpacked (STAGE_NPM_MAX_PACKAGE_BYTES)',
      ); // prettier-ignore
      expect(await cachedPackages(tight.svc.db)).toEqual([]);
      expect(await failure(tight, page("import debug from 'debug';\nconsole.log(debug);"))).toBe(
        'The app needs more than 1 npm packages (STAGE_NPM_MAX_PACKAGES), the last one "ms" (wanted by debug@4.4.3)',
      ); // prettier-ignore
    } finally {
      await tight.close();
    }
  });

  it('fails clearly when the registry is down', async () => {
    const url = await deadUrl();
    const down = await npmStage(url);
    try {
      expect(await failure(down, page("import clsx from 'clsx';\nconsole.log(clsx);"))).toBe(
        `The npm registry ${new URL(url).host} could not be reached for the metadata of "clsx" (ECONNREFUSED)`,
      ); // prettier-ignore
    } finally {
      await down.close();
    }
  });

  it('gives up on a registry that does not answer after STAGE_NPM_FETCH_TIMEOUT_MS', async () => {
    const silent = createServer(() => undefined); // takes every request, answers none
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const slow = await npmStage(`http://${host}`, { STAGE_NPM_FETCH_TIMEOUT_MS: '300' });
    try {
      expect(await failure(slow, page("import clsx from 'clsx';\nconsole.log(clsx);"))).toBe(
        `The npm registry ${host} did not answer within 300 ms (STAGE_NPM_FETCH_TIMEOUT_MS) for the metadata of "clsx"`,
      ); // prettier-ignore
    } finally {
      await slow.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});
