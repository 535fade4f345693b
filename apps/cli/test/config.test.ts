import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, envelope, fakeServer, tempDir } from './helpers';

// No gateway: a local server answering `[]` stands for it where a command must reach one.
let fake: Awaited<ReturnType<typeof fakeServer>>;
const keys: Array<string | undefined> = [];
beforeAll(async () => {
  fake = await fakeServer((req, res) => {
    keys.push(req.headers['x-api-key'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end(envelope([]));
  });
});
afterAll(() => fake.close());

/** A config directory whose file holds `text`. */
function configWith(text: string) {
  const home = tempDir();
  mkdirSync(join(home, 'platform'));
  writeFileSync(join(home, 'platform', 'config.json'), text);
  return { home, file: join(home, 'platform', 'config.json') };
}
const stored = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('a broken config file', () => {
  it('is repaired by init, which overwrites what it cannot read', async () => {
    const { home, file } = configWith('{ not json');
    const broken = await cli(['pulse', 'events', 'list'], { XDG_CONFIG_HOME: home });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is not valid JSON: run "platform init --url <url>"');
    const init = await cli(['init', '--url', fake.url, '--key', 'k1'], { XDG_CONFIG_HOME: home });
    expect(init.code).toBe(0);
    expect(stored(file)).toEqual({ url: fake.url, apiKey: 'k1' });
    expect((await cli(['pulse', 'events', 'list'], { XDG_CONFIG_HOME: home })).code).toBe(0);
  });

  it('is not read when PLATFORM_URL and PLATFORM_API_KEY are both set', async () => {
    const { home } = configWith('[[[');
    const env = { XDG_CONFIG_HOME: home, PLATFORM_URL: fake.url, PLATFORM_API_KEY: 'env-key' };
    const res = await cli(['pulse', 'events', 'list', '--json'], env);
    expect(res).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(keys[keys.length - 1]).toBe('env-key');
  });

  it('with a field of the wrong type says which, not "baseUrl.replace is not a function"', async () => {
    const { home } = configWith('{"url":42}');
    const res = await cli(['pulse', 'events', 'list'], { XDG_CONFIG_HOME: home });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('has a url that is not a string (42)');
    expect(res.stderr).not.toContain('is not a function');
    const key = configWith(`{"url":"${fake.url}","apiKey":["x"]}`);
    expect((await cli(['config'], { XDG_CONFIG_HOME: key.home })).stderr).toContain(
      'has a apiKey that is not a string',
    );
  });
});

describe('init and the stored key', () => {
  it('keeps the key when only --url is given, removes it on --key "", reads it with --key -', async () => {
    const home = tempDir();
    const file = join(home, 'platform', 'config.json');
    const env = { XDG_CONFIG_HOME: home };
    await cli(['init', '--url', fake.url, '--key', 'secret'], env);
    expect((await cli(['init', '--url', `${fake.url}/`], env)).code).toBe(0);
    expect(stored(file)).toEqual({ url: fake.url, apiKey: 'secret' });
    expect((await cli(['init', '--url', fake.url, '--key', ''], env)).code).toBe(0);
    expect(stored(file)).toEqual({ url: fake.url });
    const piped = await cli(['init', '--url', fake.url, '--key', '-'], env, 'from-stdin\n');
    expect(piped.code).toBe(0);
    expect(stored(file)).toEqual({ url: fake.url, apiKey: 'from-stdin' });
    expect((await cli(['init', '--url', fake.url, '--key', '-'], env, '')).code).toBe(2);
    expect(stored(file).apiKey).toBe('from-stdin');
  });
});

describe('exit codes of the parser', () => {
  it('help is 0 however it is asked for; bad numbers are 2 before anything is sent', async () => {
    for (const args of [['help'], ['help', 'catalog'], ['catalog', '--help'], ['--help']]) {
      const res = await cli(args);
      expect({ args, code: res.code }).toEqual({ args, code: 0 });
      expect(res.stdout).toContain('Usage: platform');
    }
    expect((await cli(['catalog'])).code).toBe(2); // a group without its command
    const before = keys.length;
    const env = { PLATFORM_URL: fake.url };
    const tokens = await cli(['inference', 'chat', 'hi', '--max-tokens', 'abc'], env);
    expect(tokens.code).toBe(2);
    expect(tokens.stderr).toContain('--max-tokens must be a whole number above 0: abc');
    expect((await cli(['billing', 'sync', '--provider', 'x', '--timeout', 'soon'], env)).code).toBe(
      2,
    );
    expect(keys.length).toBe(before);
  });
});
