import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, json, startGateway, tempDir } from './helpers';

// Imports and pushes checking their input before anything is sent, and the commands of issue
// 19's review (runs, one file, signing key, gateway health and flags, FOCUS upload).

let platform: Awaited<ReturnType<typeof startGateway>>;
let env: Record<string, string>;
beforeAll(async () => {
  platform = await startGateway();
  env = platform.env;
}, 90_000);
afterAll(() => platform.stop());

describe('palette import sends the files to the palette, which checks them', () => {
  const srgb = (r: number, g: number, b: number) => ({ colorSpace: 'srgb', components: [r, g, b] });

  it('refuses a broken file whole, every problem listed with its path, and writes nothing', async () => {
    const file = join(tempDir(), 'tokens.json');
    writeFileSync(
      file,
      JSON.stringify({
        color: {
          $type: 'color',
          blue: { 500: { $value: 'not-a-color' } },
          red: { 500: { $value: srgb(1, 0, 0) } },
        },
        size: { $type: 'dimension', 1: { $value: '4 px' } },
      }),
    );
    const res = await cli(['palette', 'import', file], env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Import refused, nothing written: 2 problems');
    expect(res.stderr).toContain('document#/color/blue/500/$value: a color is an object');
    expect(res.stderr).toContain('document#/size/1/$value: a dimension is an object');
    expect(await json(['palette', 'tokens', 'list'], env)).toEqual([]);
  });

  it('imports tokens that share a last segment; updates the token at the same path', async () => {
    const file = join(tempDir(), 'tokens.json');
    const tree = {
      color: {
        $type: 'color',
        blue: { 500: { $value: srgb(0, 0, 1) } },
        red: { 500: { $value: srgb(1, 0, 0) } },
      },
    };
    writeFileSync(file, JSON.stringify(tree));
    const dry = await json(['palette', 'import', file, '--dry-run'], env);
    expect(dry).toMatchObject({ dryRun: true, created: 2 });
    expect(await json(['palette', 'tokens', 'list'], env)).toEqual([]);
    expect(await json(['palette', 'import', file], env)).toMatchObject({ created: 2, updated: 0 });
    tree.color.red[500].$value = srgb(0.9, 0, 0);
    writeFileSync(file, JSON.stringify(tree));
    expect(await json(['palette', 'import', file], env)).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 1,
    });
    const red = await json(['palette', 'tokens', 'get', 'color-red-500'], env);
    expect(red).toMatchObject({ group: 'color.red', value: { default: 'color(srgb 0.9 0 0)' } });
  });

  it("reads a resolver's $ref files from its own directory only", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'tokens'));
    writeFileSync(join(dir, 'secret.json'), JSON.stringify({ n: { $type: 'number', $value: 1 } }));
    const resolver = join(dir, 'tokens', 'resolver.json');
    writeFileSync(
      resolver,
      JSON.stringify({
        version: '2025.10',
        sets: { s: { sources: [{ $ref: '../secret.json' }] } },
        resolutionOrder: [{ $ref: '#/sets/s' }],
      }),
    );
    const res = await cli(['palette', 'import', resolver], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      '$ref ../secret.json: a resolver reads files from its own directory only',
    );
    expect(await json(['palette', 'tokens', 'list'], env)).toHaveLength(2);
  });
});

describe('catalog import of a repository', () => {
  it('reads only catalog-info*.yaml in directories and skips documents of other apiVersions', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'docker-compose.yml'), 'services:\n  web:\n    image: nginx\n');
    writeFileSync(
      join(dir, 'catalog-info.yaml'),
      'apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata:\n  name: web-team\n---\n' +
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
    );
    const res = await cli(['catalog', 'import', dir], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('1 created');
    expect(res.stdout).toContain(
      'skipped  ' + join(dir, 'catalog-info.yaml') + ' (document 2): apiVersion apps/v1',
    );
    expect(res.stdout).not.toContain('docker-compose');
  });
});

describe('pulse import run again', () => {
  it('stores nothing twice: events without an id get one from the file and the line', async () => {
    const file = join(tempDir(), 'events.ndjson');
    const lines = Array.from({ length: 6 }, (_, i) => JSON.stringify({ name: `again-${i % 2}` }));
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(await json(['pulse', 'import', file, '--batch-size', '4'], env)).toMatchObject({
      ingested: 6,
      duplicates: 0,
    });
    expect(await json(['pulse', 'import', file], env)).toMatchObject({
      ingested: 0,
      duplicates: 6,
    });
    const top = await json(['pulse', 'top'], env);
    expect(top).toEqual(expect.arrayContaining([{ name: 'again-0', count: 3 }]));
  });
});

describe('stage sessions', () => {
  it('push checks every file first, tells of symlinks, splits what does not fit in one request', async () => {
    const { id } = await json(['stage', 'sessions', 'create'], env);
    const src = tempDir();
    mkdirSync(join(src, 'lib'));
    for (let i = 0; i < 12; i++)
      writeFileSync(join(src, 'lib', `f${i}.ts`), `export const v = ${i};\n`);
    writeFileSync(join(src, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    writeFileSync(join(src, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const refused = await cli(['stage', 'sessions', 'push', id, src, '--max-file-bytes', '3'], env); // prettier-ignore
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('logo.png: 4 bytes, over the 3 a file may have');
    expect(refused.stderr).toContain('latin1.txt: 4 bytes, over the 3 a file may have');
    expect((await json(['stage', 'sessions', 'files', id], env)).length).toBe(0);

    writeFileSync(join(src, 'logo.png'), 'now text');
    writeFileSync(join(src, 'latin1.txt'), 'café');
    symlinkSync('/etc/hostname', join(src, 'link.txt'));
    const pushed = await cli(
      ['stage', 'sessions', 'push', id, src, '--max-request-bytes', '200'],
      env,
    );
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toBe(`Pushed 14 files to ${id} (1 symlink skipped)\n`);
    expect(pushed.stderr).toContain(
      'Skipped link.txt: symlinks and special files are not followed',
    );
    const files = await json(['stage', 'sessions', 'files', id], env);
    expect(files.map((f: any) => f.path)).not.toContain('/app/link.txt');
    expect(files).toHaveLength(14);

    const read = await cli(['stage', 'sessions', 'read', id, '/app/latin1.txt'], env);
    expect(read).toMatchObject({ code: 0, stdout: 'café' });
    expect(await json(['stage', 'sessions', 'read', id, '/app/lib/f3.ts'], env)).toEqual({
      path: '/app/lib/f3.ts',
      version: 1,
      content: 'export const v = 3;\n',
    });
    expect((await cli(['stage', 'sessions', 'read', id, '/app/none.ts'], env)).code).toBe(4);
  });

  it('lists and gets workflow runs of an app (stage.listRuns, stage.getRun)', async () => {
    const runs = await cli(['stage', 'runs', 'list', 'no-such-app'], env);
    expect(runs.code).toBe(4);
    expect((await cli(['stage', 'runs', 'get', 'no-such-app', 'r1'], env)).code).toBe(4);
  });
});

describe('ledger, gateway and billing commands', () => {
  it('shows the signing key, the health of the services and the feature flags', async () => {
    // The test gateway has no LEDGER_SIGNING_KEY: the ledger's own answer, exit 4.
    const key = await cli(['ledger', 'signing-key'], env);
    expect(key.code).toBe(4);
    expect(key.stderr).toContain('LEDGER_SIGNING_KEY is not set');
    const health = await json(['gateway', 'health'], env);
    expect(health).toMatchObject({ status: 'ok' });
    expect(health.services.map((s: any) => s.name)).toContain('catalog');
    const flags = await json(['gateway', 'features', 'list'], env);
    expect(flags.map((f: any) => f.name)).toContain('billing');
    expect(await json(['gateway', 'features', 'get', 'billing'], env)).toMatchObject({
      name: 'billing',
    });
  });

  it('uploads a FOCUS CSV and waits for its sync job', async () => {
    const file = join(tempDir(), 'focus.csv');
    writeFileSync(
      file,
      'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName,ServiceCategory,SubAccountId,SubAccountName,RegionName,ResourceId,SkuId,ChargeCategory,ChargeFrequency,Tags\n' +
        '1.25,USD,2026-01-02T00:00:00Z,2026-01-03T00:00:00Z,AWS,Amazon EC2,Compute,acct-1,Account 1,us-east-1,res-1,sku-1,Usage,Usage-Based,\n',
    );
    const job = await json(
      ['billing', 'focus', file, '--from', '2026-01-01', '--to', '2026-01-31'],
      env,
    );
    expect(job).toMatchObject({ status: 'completed', itemsCreated: 1 });
  });
});
