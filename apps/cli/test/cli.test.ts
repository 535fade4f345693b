import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cli, json, startGateway, tempDir } from './helpers';

let platform: Awaited<ReturnType<typeof startGateway>>;
let env: Record<string, string>;
beforeAll(async () => {
  platform = await startGateway();
  env = platform.env;
}, 90_000);
afterAll(() => platform.stop());

describe('configuration', () => {
  it('exits 3 before init, saying so; init stores the URL and key readable by the owner only', async () => {
    const config = tempDir();
    const before = await cli(['catalog', 'services', 'list'], { XDG_CONFIG_HOME: config });
    expect(before).toMatchObject({ code: 3, stdout: '' });
    expect(before.stderr).toMatch(/Not initialized: run "platform init"/);

    const init = await cli(['init', '--url', `${platform.gateway.url}/`, '--key', 'k-123'], {
      XDG_CONFIG_HOME: config,
    });
    expect(init.code).toBe(0);
    const path = join(config, 'platform', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'platform')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      url: platform.gateway.url,
      apiKey: 'k-123',
    });
    const after = await cli(['catalog', 'services', 'list', '--json'], { XDG_CONFIG_HOME: config });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual([]);
    const shown = await json(['config'], { XDG_CONFIG_HOME: config });
    expect(shown).toMatchObject({ url: platform.gateway.url, apiKey: true, urlFrom: 'config' });
    expect(JSON.stringify(shown)).not.toContain('k-123');
    expect((await cli(['init', '--url', 'ftp://x'], { XDG_CONFIG_HOME: config })).code).toBe(2);
  });

  it('sends the API key as X-API-Key; PLATFORM_URL and PLATFORM_API_KEY override the file', async () => {
    const seen: Array<string | undefined> = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      const crash = req.url?.startsWith('/api/v1/pulse/events');
      res.writeHead(crash ? 500 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          crash
            ? { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }
            : { success: true, data: [] },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const config = tempDir();
      await cli(['init', '--url', platform.gateway.url, '--key', 'from-file'], {
        XDG_CONFIG_HOME: config,
      });
      const over = { XDG_CONFIG_HOME: config, PLATFORM_URL: url, PLATFORM_API_KEY: 'from-env' };
      expect((await cli(['catalog', 'systems', 'list'], over)).code).toBe(0);
      expect(
        (await cli(['catalog', 'systems', 'list'], { XDG_CONFIG_HOME: config, PLATFORM_URL: url }))
          .code,
      ).toBe(0);
      expect(seen).toEqual(['from-env', 'from-file']);
      const crashed = await cli(['pulse', 'events', 'list'], over);
      expect(crashed.code).toBe(1);
      expect(crashed.stderr).toContain('boom (INTERNAL_ERROR)');
    } finally {
      server.close();
    }
  });

  it('exits 5 when the gateway cannot be reached', async () => {
    const res = await cli(['pulse', 'events', 'list'], { PLATFORM_URL: 'http://127.0.0.1:9' });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(res.stdout).toBe('');
  });
});

describe('exit codes and output', () => {
  it('0 with a table, --json exactly the data, --quiet nothing at all', async () => {
    const created = await json(
      ['catalog', 'services', 'create', 'cart', '--tags', 'shop,web', '--type', 'service'],
      env,
    );
    expect(created).toMatchObject({ name: 'cart', tags: ['shop', 'web'], type: 'service' });
    const table = await cli(['catalog', 'services', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID\s+NAMESPACE\s+NAME\s+SYSTEM\s+OWNER\s+TYPE\s+LIFECYCLE$/,
    );
    expect(table.stdout).toMatch(new RegExp(`${created.id}\\s+default\\s+cart\\s+service`));
    expect(await json(['catalog', 'services', 'get', 'CART'], env)).toEqual(created);
    const quiet = await cli(['catalog', 'services', 'get', 'cart', '--quiet'], env);
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' });
    const message = await cli(
      ['catalog', 'services', 'update', 'cart', '--lifecycle', 'production'],
      env,
    );
    expect(message.stdout).toBe(`Updated service cart (${created.id})\n`);
  });

  it('4 for a resource not found, 1 for a conflict, 2 for bad arguments and refused input', async () => {
    const missing = await cli(['catalog', 'services', 'get', 'nope'], env);
    expect(missing).toMatchObject({ code: 4, stdout: '' });
    expect(missing.stderr).toContain('Service not found: nope (NOT_FOUND)');
    await cli(['catalog', 'systems', 'create', 'shop'], env);
    const taken = await cli(['catalog', 'systems', 'create', 'Shop'], env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('CONFLICT');
    expect((await cli(['catalog', 'services', 'get'], env)).code).toBe(2); // missing argument
    expect((await cli(['catalog', 'services', 'frobnicate'], env)).code).toBe(2); // unknown command
    expect((await cli(['catalog', 'services', 'list', '--bogus'], env)).code).toBe(2); // unknown option
    expect((await cli(['catalog', 'services', 'list', '--limit', 'many'], env)).code).toBe(2); // not a number
    const refused = await cli(['catalog', 'services', 'list', '--limit', '5000'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('BAD_REQUEST');
    expect((await cli(['pulse', 'events', 'create', 'x', '--data', '{oops'], env)).code).toBe(2);
    expect((await cli(['--help'], env)).code).toBe(0);
  });

  it('lists page with --limit and --offset, filters, and reads a body from --data', async () => {
    for (const name of ['a-svc', 'b-svc', 'c-svc'])
      await cli(
        [
          'catalog',
          'services',
          'create',
          name,
          '--data',
          '{"lifecycle":"experimental"}',
          '--quiet',
        ],
        env,
      );
    const page = await json(
      [
        'catalog',
        'services',
        'list',
        '--lifecycle',
        'experimental',
        '--limit',
        '2',
        '--offset',
        '1',
      ],
      env,
    );
    expect(page.map((s: any) => s.name)).toEqual(['b-svc', 'c-svc']);
  });

  it('shows dependencies as a tree', async () => {
    await cli(['catalog', 'services', 'depend', 'a-svc', 'b-svc'], env);
    await cli(['catalog', 'services', 'depend', 'b-svc', 'c-svc'], env);
    const tree = await cli(['catalog', 'deps', 'a-svc'], env);
    expect(tree.stdout).toBe('a-svc\n└── b-svc\n    └── c-svc\n');
    const up = await cli(['catalog', 'deps', 'c-svc', '--up'], env);
    expect(up.stdout).toBe('c-svc\n└── b-svc\n    └── a-svc\n');
  });

  it('streams a chat answer, and --json gives the whole answer', async () => {
    const streamed = await cli(['inference', 'chat', '--model', 'mock-1', 'hello', 'world'], env);
    expect(streamed).toMatchObject({ code: 0, stdout: 'Mock answer to: hello world\n' });
    const whole = await json(['inference', 'chat', '--model', 'mock-1', 'hi'], env);
    expect(whole).toMatchObject({
      content: 'Mock answer to: hi',
      usage: { outputTokens: expect.any(Number) },
    });
    expect((await cli(['inference', 'chat', 'no', 'model'], env)).code).toBe(2);
  });

  it('creates a passport key and shows the secret once', async () => {
    const res = await cli(['passport', 'keys', 'create', 'ci'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Created key ci \(\w+\)\n\S{20,}\nStore it now/);
  });
});

describe('completion', () => {
  it('prints bash and zsh scripts generated from the command tree', async () => {
    const bash = await cli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -o default -F _platform_complete platform');
    expect(bash.stdout).toMatch(
      /'catalog services'\) words='list get create update delete depend undepend/,
    );
    expect(bash.stdout).toMatch(/'stage sessions'\) words='[^']*\bpush\b[^']*\bpull\b/);
    const dir = tempDir();
    writeFileSync(join(dir, 'platform.bash'), bash.stdout);
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${dir}/platform.bash; COMP_WORDS=(${line}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _platform_complete; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8' },
      ).trim();
    expect(complete("platform cat ''").length).toBeGreaterThan(0);
    expect(complete('platform cat')).toBe('catalog');
    expect(complete('platform catalog services li')).toBe('list');
    expect(complete('platform --json stage sessions pu')).toBe('push pull');
    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef platform/);
    expect(zsh.stdout).toContain(
      "'catalog') choices=('services' 'apis' 'systems' 'owners' 'domains' 'templates' 'search' 'deps' 'import'",
    );
    expect((await cli(['completion', 'fish'])).code).toBe(2);
  });
});
