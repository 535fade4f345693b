import { createHash } from 'node:crypto';
import { npmConfig } from '../src/config/npm';
import { readLock, writeLock, type Tree } from '../src/domain/npm/lock';
import { Registry, type Packument } from '../src/domain/npm/registry';
import { resolveTree } from '../src/domain/npm/resolve';
import { checkIntegrity, unpack } from '../src/domain/npm/tarball';
import { localRegistry, tarball } from './npm-registry';

/** A registry in memory: `name: { version: dependencies }` (peers as `peer:name`). */
function documents(spec: Record<string, Record<string, Record<string, string>>>) {
  const asked: string[] = [];
  const packument = async (name: string): Promise<Packument> => {
    asked.push(name);
    const versions = spec[name];
    if (!versions) throw new Error(`no ${name}`);
    const manifest = (version: string, deps: Record<string, string>) => {
      const peers = Object.entries(deps).filter(([n]) => n.startsWith('peer:'));
      const plain = Object.entries(deps).filter(([n]) => !n.startsWith('peer:'));
      return {
        name,
        version,
        ...(plain.length ? { dependencies: Object.fromEntries(plain) } : {}),
        ...(peers.length ? { peerDependencies: Object.fromEntries(peers.map(([n, r]) => [n.slice(5), r])) } : {}), // prettier-ignore
        dist: { tarball: `https://r.example/${name}-${version}.tgz`, integrity: `sha512-${name}${version}` }, // prettier-ignore
      };
    };
    const list = Object.keys(versions);
    return {
      name,
      'dist-tags': { latest: list[list.length - 1] },
      versions: Object.fromEntries(list.map((v) => [v, manifest(v, versions[v])])),
    };
  };
  return { asked, packument };
}

const layout = (tree: Tree) =>
  Object.fromEntries([...tree].map(([path, entry]) => [path, entry.version]));
const want = (deps: Record<string, string>) =>
  Object.entries(deps).map(([name, spec]) => ({ name, spec, by: '/app/package.json' }));

describe('resolveTree', () => {
  const registry = {
    a: { '1.0.0': {}, '1.2.0': {}, '2.0.0': {} },
    b: { '1.0.0': { a: '^2.0.0' } },
    c: { '1.0.0': { a: '^1.0.0', b: '^1.0.0' } },
    loop: { '1.0.0': { pool: '*' } },
    pool: { '1.0.0': { loop: '*' } },
    hooks: { '1.0.0': { 'peer:react': '>=18', 'peer:a': '^1.0.0' } },
  };

  it('hoists what can be shared and nests a version that conflicts under the package wanting it', async () => {
    const { packument } = documents(registry);
    const tree = await resolveTree(want({ a: '^1.0.0', b: '^1.0.0', c: '1.0.0' }), { pinned: new Map(), packument, maxPackages: 10 }); // prettier-ignore
    expect(layout(tree)).toEqual({
      'node_modules/a': '1.2.0',
      'node_modules/b': '1.0.0',
      'node_modules/b/node_modules/a': '2.0.0',
      'node_modules/c': '1.0.0',
    });
  });

  it('takes latest when it satisfies, else the highest version that does; ends cycles', async () => {
    const { packument } = documents({ ...registry, a: { '1.0.0': {}, '3.0.0': {}, '2.5.0': {} } });
    const tree = await resolveTree(want({ a: '^3 || ^2', loop: 'latest' }), { pinned: new Map(), packument, maxPackages: 10 }); // prettier-ignore
    expect(layout(tree)).toEqual({ 'node_modules/a': '2.5.0', 'node_modules/loop': '1.0.0', 'node_modules/pool': '1.0.0' }); // prettier-ignore
    const lower = await resolveTree(want({ a: '<2.5' }), { pinned: new Map(), packument, maxPackages: 10 }); // prettier-ignore
    expect(layout(lower)).toEqual({ 'node_modules/a': '1.0.0' });
  });

  it('installs peers, except react and react-dom (the platform provides them)', async () => {
    const { packument, asked } = documents(registry);
    const tree = await resolveTree(want({ hooks: '*' }), { pinned: new Map(), packument, maxPackages: 10 }); // prettier-ignore
    expect(layout(tree)).toEqual({ 'node_modules/a': '1.2.0', 'node_modules/hooks': '1.0.0' });
    expect(asked).not.toContain('react');
  });

  it('keeps the pins that still satisfy without asking the registry, and counts packages', async () => {
    const first = await resolveTree(want({ a: '^1.0.0', b: '*' }), { pinned: new Map(), packument: documents(registry).packument, maxPackages: 10 }); // prettier-ignore
    const none = documents({});
    const again = await resolveTree(want({ a: '^1.0.0', b: '*' }), { pinned: first, packument: none.packument, maxPackages: 10 }); // prettier-ignore
    expect(again).toEqual(first);
    expect(none.asked).toEqual([]);
    // A range the pin does not satisfy goes to the registry.
    const moved = await resolveTree(want({ a: '^2.0.0' }), { pinned: first, packument: documents(registry).packument, maxPackages: 10 }); // prettier-ignore
    expect(layout(moved)).toEqual({ 'node_modules/a': '2.0.0' });
    await expect(
      resolveTree(want({ c: '*' }), {
        pinned: new Map(),
        packument: documents(registry).packument,
        maxPackages: 3,
      }),
    ).rejects.toThrow(
      // prettier-ignore
      'The app needs more than 3 npm packages (STAGE_NPM_MAX_PACKAGES), the last one "a" (wanted by b@1.0.0)',
    );
  });

  it('writes a lock that reads back as the same tree', async () => {
    const tree = await resolveTree(want({ a: '^1.0.0', b: '*' }), { pinned: new Map(), packument: documents(registry).packument, maxPackages: 10 }); // prettier-ignore
    const text = writeLock(
      'app',
      new Map([
        ['a', '^1.0.0'],
        ['b', '*'],
      ]),
      tree,
    );
    const read = readLock(new Map([['/app/package-lock.json', text]]));
    expect(read.tree).toEqual(tree);
    expect([...read.wanted]).toEqual([
      ['a', '^1.0.0'],
      ['b', '*'],
    ]);
    expect(writeLock('app', read.wanted, read.tree)).toBe(text);
  });
});

describe('tarballs', () => {
  it('unpacks regular files only, never a path leaving the package or a link', async () => {
    const tgz = tarball([
      { path: 'package/package.json', data: '{}' },
      { path: 'package/lib/index.js', data: 'export default 1;' },
      { path: 'package/../../evil.js', data: 'evil' },
      { path: '/etc/evil.js', data: 'evil' },
      { path: 'package/link.js', type: 'SymbolicLink', linkpath: '/etc/passwd' },
    ]);
    const files = await unpack(tgz, 'x@1.0.0', 1024);
    expect(files.map((f) => [f.path, f.data.toString()])).toEqual([
      ['package.json', '{}'],
      ['lib/index.js', 'export default 1;'],
    ]);
    await expect(unpack(tgz, 'x@1.0.0', 10)).rejects.toThrow(
      '"x@1.0.0" is larger than 10 bytes unpacked (STAGE_NPM_MAX_PACKAGE_BYTES)',
    );
    await expect(unpack(Buffer.from('not gzip'), 'x@1.0.0', 10)).rejects.toThrow(
      'The tarball of "x@1.0.0" is not gzip data',
    );
  });

  it('checks the strongest integrity given (sha512, or the sha1 of old packages)', () => {
    const bytes = Buffer.from('package bytes');
    const sri = (algorithm: string) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`; // prettier-ignore
    expect(() => checkIntegrity(bytes, sri('sha512'), 'x@1')).not.toThrow();
    expect(() => checkIntegrity(bytes, `${sri('sha1')} ${sri('sha512')}`, 'x@1')).not.toThrow();
    expect(() => checkIntegrity(bytes, sri('sha1'), 'x@1')).not.toThrow();
    expect(() => checkIntegrity(Buffer.from('other'), sri('sha512'), 'x@1')).toThrow(
      /^The tarball of "x@1" does not match its integrity sha512-/,
    );
    expect(() => checkIntegrity(bytes, 'md5-abc', 'x@1')).toThrow(
      'is not one this platform checks',
    );
  });
});

describe('the registry client', () => {
  it('goes through the private-address guard unless the registry was configured', async () => {
    const local = await localRegistry();
    const guarded = new Registry({ ...npmConfig({}), registry: local.url });
    const chosen = new Registry(npmConfig({ STAGE_NPM_REGISTRY: local.url }));
    try {
      await expect(guarded.packument('clsx')).rejects.toThrow(
        'The npm registry 127.0.0.1 is a loopback, private, link-local or unspecified address, refused (only a registry set in STAGE_NPM_REGISTRY may be)',
      );
      expect(local.requests).toEqual([]);
      expect((await chosen.packument('clsx'))['dist-tags'].latest).toBe('2.1.1');
      // A configured registry's own origin only: a tarball elsewhere is guarded.
      const port = new URL(local.url).port;
      await expect(
        chosen.tarball('clsx', '2.1.1', `http://localhost:${port}/clsx/-/clsx-2.1.1.tgz`),
      ).rejects.toThrow(
        // prettier-ignore
        `The npm registry localhost is a loopback, private, link-local or unspecified address, refused`,
      );
      expect(local.requests).toEqual(['/clsx']);
    } finally {
      await Promise.all([guarded.close(), chosen.close(), local.close()]);
    }
  });
});
