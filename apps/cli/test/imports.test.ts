import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cli, json, startGateway, tempDir } from './helpers';

let platform: Awaited<ReturnType<typeof startGateway>>;
let env: Record<string, string>;
beforeAll(async () => {
  platform = await startGateway();
  env = platform.env;
}, 90_000);
afterAll(() => platform.stop());

const DESCRIPTORS = `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: payments
spec:
  type: team
  children: []
  profile:
    email: pay@example.com
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: shop
spec:
  owner: group:default/payments
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: orders-api
spec:
  type: openapi
  lifecycle: production
  owner: payments
  definition: "openapi: 3.0.0"
`;

const COMPONENTS = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: orders
  description: Takes orders
  tags: [java]
spec:
  type: service
  lifecycle: production
  owner: payments
  system: shop
  providesApis: [orders-api]
  dependsOn: [resource:orders-db]
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: orders-db
spec:
  type: database
  owner: payments
`;

describe('catalog import', () => {
  it('reports unknown references all at once and writes nothing (exit 2)', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'catalog-info.yaml'),
      COMPONENTS.replace('owner: payments\n  system: shop', 'owner: ghosts\n  system: nowhere'),
    );
    const res = await cli(['catalog', 'import', dir], env);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    // Each problem names the file it is in, as the import was sent it (relative to the CLI's cwd).
    const file = relative(process.cwd(), join(dir, 'catalog-info.yaml'));
    for (const part of [
      'Import refused, nothing written',
      `Component orders (${file}): spec.owner group:default/ghosts: no group ghosts`,
      `Component orders (${file}): spec.system system:default/nowhere: no system nowhere`,
      `Resource orders-db (${file}): spec.owner group:default/payments: no group payments`,
    ])
      expect(res.stderr).toContain(part);
    expect(await json(['catalog', 'services', 'list'], env)).toEqual([]);
  });

  it('a dry run reports, the import writes, a second run changes nothing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'services'));
    writeFileSync(join(dir, 'catalog-info-org.yaml'), DESCRIPTORS);
    writeFileSync(join(dir, 'services', 'catalog-info.yaml'), COMPONENTS);
    writeFileSync(join(dir, 'README.md'), 'not a descriptor');
    const dry = await cli(['catalog', 'import', dir, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: 5 created, 0 updated, 0 unchanged\n/);
    expect(dry.stdout).toContain('would be created  Component orders');
    expect(await json(['catalog', 'services', 'list'], env)).toEqual([]);

    const first = await json(
      ['catalog', 'import', join(dir, 'catalog-info-org.yaml'), join(dir, 'services')],
      env,
    );
    expect(first).toMatchObject({ dryRun: false, created: 5, updated: 0, unchanged: 0 });
    const orders = await json(['catalog', 'services', 'get', 'orders'], env);
    expect(orders).toMatchObject({
      owner: 'payments',
      system: 'shop',
      lifecycle: 'production',
      tags: ['java'],
    });
    expect(orders.dependencies).toHaveLength(1);

    const second = await cli(['catalog', 'import', dir], env);
    expect(second.stdout).toBe('0 created, 0 updated, 5 unchanged\n');
    writeFileSync(
      join(dir, 'services', 'catalog-info.yaml'),
      COMPONENTS.replace('Takes orders', 'Takes and ships orders'),
    );
    const third = await cli(['catalog', 'import', dir], env);
    expect(third.stdout).toBe(
      '0 created, 1 updated, 4 unchanged\nupdated  Component orders (description)\n',
    );
  });

  it('says which Location targets it followed: the files it sent, never others', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'services'));
    writeFileSync(join(dir, 'catalog-info-org.yaml'), DESCRIPTORS);
    writeFileSync(join(dir, 'services', 'catalog-info.yaml'), COMPONENTS);
    const location = `apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: everything
spec:
  type: file
  targets: [./services/catalog-info.yaml, ./elsewhere/catalog-info.yaml]
`;
    writeFileSync(join(dir, 'catalog-info.yaml'), location);
    const dry = await cli(['catalog', 'import', dir, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('location everything: ./services/catalog-info.yaml followed\n');
    expect(dry.stdout).toMatch(
      /location everything: \.\/elsewhere\/catalog-info\.yaml not followed \(.*elsewhere\/catalog-info\.yaml is not a document of this import/,
    );
  });

  it("follows Locations to the repository's other files, as Backstage reads them", async () => {
    // Backstage's example layout: all.yaml (no catalog-info.yaml) names the other files.
    const dir = tempDir();
    mkdirSync(join(dir, 'components'));
    const doc = (kind: string, name: string, spec: string) =>
      `apiVersion: backstage.io/v1alpha1\nkind: ${kind}\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
    writeFileSync(
      join(dir, 'all.yaml'),
      doc(
        'Location',
        'example-all',
        '  targets: [./org.yaml, ./components/*.yaml, ./missing.yaml, ../outside.yaml]\n',
      ),
    );
    writeFileSync(join(dir, 'org.yaml'), doc('Group', 'loc-team', '  type: team\n'));
    for (const name of ['loc-a', 'loc-b'])
      writeFileSync(
        join(dir, 'components', `${name}.yaml`),
        doc('Component', name, '  type: service\n  owner: loc-team\n'),
      );
    writeFileSync(join(dir, 'components', 'notes.txt'), 'not named');
    const res = await cli(['catalog', 'import', dir], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^3 created, 0 updated, 0 unchanged\n/);
    const all = relative(process.cwd(), join(dir, 'all.yaml'));
    for (const line of [
      'location example-all: ./components/*.yaml followed',
      'location example-all: ./org.yaml followed',
      `skipped  ${all}: Location example-all target ./missing.yaml: no such file`,
    ])
      expect(res.stdout).toContain(`${line}\n`);
    expect(res.stdout).toMatch(/location example-all: \.\.\/outside\.yaml not followed/);
    const services = await json(['catalog', 'services', 'list', '--owner', 'loc-team'], env);
    expect(services.map((s: { name: string }) => s.name)).toEqual(['loc-a', 'loc-b']);
  });

  it('refuses a file that is not YAML with exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'catalog-info.yaml'), 'kind: [unclosed\n');
    const res = await cli(['catalog', 'import', dir], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('catalog-info.yaml (document 1)');
  });
});

describe('pulse import', () => {
  it('sends the events in batches and refuses a bad file before sending anything', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 25 }, (_, i) =>
      JSON.stringify({ name: i % 2 ? 'signup' : 'login', userId: `u${i}` }),
    );
    writeFileSync(join(dir, 'events.ndjson'), `${lines.join('\n')}\n\n`);
    const res = await json(
      ['pulse', 'import', join(dir, 'events.ndjson'), '--batch-size', '10'],
      env,
    );
    expect(res).toMatchObject({ ingested: 25, batches: 3 });
    const top = await json(['pulse', 'top'], env);
    expect(top).toEqual(
      expect.arrayContaining([
        { name: 'login', count: 13 },
        { name: 'signup', count: 12 },
      ]),
    );

    writeFileSync(join(dir, 'bad.ndjson'), `${lines[0]}\n{oops\n{"nope":1}\n`);
    const bad = await cli(['pulse', 'import', join(dir, 'bad.ndjson')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('line 2: not valid JSON');
    expect(bad.stderr).toContain('line 3: an event is an object with a name');
    expect((await json(['pulse', 'events', 'list'], env)).length).toBe(25);
  });
});

describe('palette import', () => {
  it('round-trips the DTCG 2025.10 export: export, delete, import, export again gives the same file', async () => {
    const tokens = [
      ['blue', 'color', '#1d4ed8', '--data', '{"dark":"#93c5fd","group":"brand"}'],
      ['primary', 'color', '{brand.blue}', '--group', 'brand'],
      ['gap', 'spacing', '-4px'],
      ['sans', 'font-family', '"Inter", system-ui, sans-serif'],
      ['bold', 'font-weight', '700'],
      ['fast', 'motion', '120ms'],
      ['ease', 'easing', 'cubic-bezier(0.4, 0, 0.2, 1)'],
      ['card', 'shadow', '0 1px 2px rgb(0 0 0 / 0.2)'],
      ['overlay', 'opacity', '0.5'],
    ];
    for (const [name, category, value, ...rest] of tokens) {
      const res = await cli(
        ['palette', 'tokens', 'create', name, '--category', category, '--value', value, ...rest],
        env,
      );
      expect(res.stderr).toBe('');
    }
    // What a token is, as the palette shows it: its values survive the round trip.
    const listed = async () =>
      (await json(['palette', 'tokens', 'list'], env))
        .map((t: Record<string, unknown>) => ({
          name: t.name,
          category: t.category,
          value: t.value,
          cssVariable: t.cssVariable,
          group: t.group,
        }))
        .sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
    const before = await listed();
    expect(before).toHaveLength(tokens.length);
    const dir = tempDir();
    const file = join(dir, 'tokens.json');
    expect((await cli(['palette', 'export', '--format', 'dtcg', '-o', file], env)).code).toBe(0);
    const exported = readFileSync(file, 'utf8');

    for (const [name] of [...tokens].reverse())
      expect((await cli(['palette', 'tokens', 'delete', name, '--quiet'], env)).code).toBe(0);
    const imported = await json(['palette', 'import', file], env);
    expect(imported).toMatchObject({ created: tokens.length, updated: 0, modes: ['theme:dark'] });
    expect(await listed()).toEqual(before);
    const again = await json(['palette', 'export', '--format', 'dtcg'], env);
    expect(again.output.trim()).toBe(exported.trim());
    expect(await json(['palette', 'import', file], env)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: tokens.length,
    });
  }, 90_000); // 22 CLI processes, one after another: 30 s on a loaded machine
});

describe('stage sessions', () => {
  it('pushes a directory and pulls it back the same', async () => {
    const src = tempDir();
    mkdirSync(join(src, 'src', 'lib'), { recursive: true });
    mkdirSync(join(src, 'node_modules', 'x'), { recursive: true });
    const files: Record<string, string> = { 'main.tsx': 'export default () => <p>hi</p>;\n' };
    for (let i = 0; i < 30; i++) files[`src/lib/f${i}.ts`] = `export const v${i} = ${i};\n`;
    for (const [path, content] of Object.entries(files)) writeFileSync(join(src, path), content);
    writeFileSync(join(src, 'node_modules', 'x', 'index.js'), 'skipped');
    const { id } = await json(['stage', 'sessions', 'create'], env);
    const pushed = await json(['stage', 'sessions', 'push', id, src], env);
    expect(pushed.count).toBe(31);
    const status = await json(['stage', 'sessions', 'status', id], env);
    expect(status.files.map((f: any) => f.path)).toContain('/app/src/lib/f7.ts');
    expect(status.files.map((f: any) => f.path)).not.toContain('/app/node_modules/x/index.js');

    const out = tempDir();
    const pulled = await cli(['stage', 'sessions', 'pull', id, out], env);
    expect(pulled.stdout).toBe(`Pulled 31 files into ${out}\n`);
    for (const [path, content] of Object.entries(files))
      expect(readFileSync(join(out, path), 'utf8')).toBe(content);

    await json(['stage', 'sessions', 'push', id, join(src, 'main.tsx')], env);
    const history = await json(
      ['stage', 'sessions', 'history', id, '--path', '/app/main.tsx'],
      env,
    );
    expect(history).toHaveLength(2);
    const snapshot = await json(['stage', 'sessions', 'snapshot', id, '--label', 'v1'], env);
    expect(snapshot).toMatchObject({ label: 'v1', fileCount: 31 });
    expect((await cli(['stage', 'sessions', 'status', 'no-such-session'], env)).code).toBe(4);
  });
});
