import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { cli, envelope, fakeServer, tempDir } from './helpers';

// A gateway that misbehaves, as local servers: cut streams, HTML pages, hostile paths, failures
// midway, jobs that never end. Each answers in the platform's real wire format otherwise.

type Fake = Awaited<ReturnType<typeof fakeServer>>;
const servers: Fake[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
async function gateway(handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const server = await fakeServer((req, res) => void handler(req, res));
  servers.push(server);
  return { PLATFORM_URL: server.url, XDG_CONFIG_HOME: tempDir() };
}
const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });

describe('answers that are not what the platform sends', () => {
  it('a chat stream cut off midway says the connection was lost (exit 5)', async () => {
    const env = await gateway(async (req, res) => {
      // The request read first: a socket closed with unread input is reset, which can discard
      // what the client had not read yet.
      await bodyOf(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Hel"}}\n\n',
      );
      // Cut once the client has had time to read the chunk: fetch can drop what its reader had not
      // taken yet when the connection fails (50 ms, then 300 ms, were too short on a loaded machine).
      setTimeout(() => req.socket.destroy(), 1500);
    });
    const res = await cli(['inference', 'chat', 'hi'], env);
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('Hel');
    expect(res.stderr).toMatch(/connection to http:\/\/127\.0\.0\.1:\d+ was lost/);
    expect(res.stderr).not.toContain('Error: terminated');
  });

  it('a stream that ends without its last event is a lost connection too (exit 5)', async () => {
    const env = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"type":"content_block_delta","delta":{"text":"Hi"}}\n\n');
    });
    const res = await cli(['inference', 'chat', 'hi', '--json'], env);
    expect(res).toMatchObject({ code: 5, stdout: '' });
  });

  it('an HTML page says PLATFORM_URL may point at the wrong server', async () => {
    const env = await gateway((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not here</body></html>');
    });
    for (const args of [
      ['catalog', 'services', 'list'],
      ['inference', 'chat', 'hi'],
    ]) {
      const res = await cli(args, env);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("is not the platform's JSON (HTTP 404, text/html)");
      expect(res.stderr).toContain('does PLATFORM_URL');
    }
  });
});

describe('stage sessions against a failing gateway', () => {
  it('pull checks every path first: one outside the directory writes nothing (exit 1)', async () => {
    const env = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        envelope([
          { path: '/app/a.txt', content: 'a' },
          { path: '/app/../../evil.txt', content: 'x' },
          { path: '/app/z.txt', content: 'z' },
        ]),
      );
    });
    const dir = join(tempDir(), 'out');
    const res = await cli(['stage', 'sessions', 'pull', 's1', dir], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Nothing written: 1 path refused');
    expect(res.stderr).toContain('/app/../../evil.txt: outside');
    expect(existsSync(join(dir, 'a.txt'))).toBe(false);
    expect(existsSync(join(dir, '..', '..', 'evil.txt'))).toBe(false);
  });

  it('a push split in requests says how many files went before one failed', async () => {
    const seen: string[][] = [];
    const env = await gateway(async (req, res) => {
      const files = Object.keys(JSON.parse(await bodyOf(req)).files);
      seen.push(files);
      if (seen.length === 2) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: false,
            error: { code: 'PAYLOAD_TOO_LARGE', message: 'The session would pass 1024 bytes' },
          }),
        );
        return;
      }
      const rows = files.map((path) => ({ path, version: 1, size: 1 }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(envelope({ count: rows.length, files: rows }));
    });
    const src = tempDir();
    for (let i = 0; i < 5; i++) writeFileSync(join(src, `f${i}.txt`), 'x'.repeat(40));
    const res = await cli(
      ['stage', 'sessions', 'push', 's1', src, '--max-request-bytes', '150'],
      env,
    );
    expect(res.code).toBe(1);
    expect(seen.map((batch) => batch.length)).toEqual([2, 2]);
    expect(res.stderr).toContain('2 of 5 files pushed (in 3 requests; push again for the rest)');
    expect(res.stderr).toContain('The session would pass 1024 bytes (PAYLOAD_TOO_LARGE)');
  });
});

describe('workflows and sync jobs', () => {
  it('workflows run calls stage.runWorkflow with the inputs and the Idempotency-Key', async () => {
    const requests: Array<{ url?: string; key?: string; body: string }> = [];
    const env = await gateway(async (req, res) => {
      requests.push({
        url: req.url,
        key: req.headers['idempotency-key'] as string,
        body: await bodyOf(req),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(envelope({ ok: 1 }));
    });
    const res = await cli(
      [
        'stage',
        'workflows',
        'run',
        'shop',
        'notify',
        '--input',
        '{"email":"a@example.com"}',
        '--idempotency-key',
        'k-1',
        '--json',
      ],
      env,
    );
    expect(res).toMatchObject({ code: 0, stdout: '{\n  "ok": 1\n}\n' });
    expect(requests).toEqual([
      { url: '/api/v1/run/shop/notify', key: 'k-1', body: '{"input":{"email":"a@example.com"}}' },
    ]);
  });

  it('billing sync stops waiting at --timeout, saying the job goes on (exit 1)', async () => {
    const job = { id: 'job1', status: 'running', itemsCreated: 0, itemsUpdated: 0, rowsRead: 3 };
    const env = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(envelope(job));
    });
    const started = Date.now();
    const res = await cli(
      ['billing', 'sync', '--provider', 'x', '--from', '2026-01-01', '--to', '2026-01-31'].concat([
        '--timeout',
        '1',
      ]),
      env,
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Sync job1 is still running after 1 s; it goes on');
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

describe('pull into a directory with a symlink', () => {
  it('refuses to write through a symlinked parent (lstat), and writes nothing', async () => {
    const env = await gateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        envelope([
          { path: '/app/ok.txt', content: 'ok' },
          { path: '/app/sub/x.txt', content: 'x' },
        ]),
      );
    });
    const dir = tempDir();
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, 'inside'));
    symlinkSync(join(elsewhere, 'inside'), join(dir, 'sub'));
    const res = await cli(['stage', 'sessions', 'pull', 's1', dir], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('/app/sub/x.txt: sub in');
    expect(res.stderr).toContain('is a symlink');
    expect(existsSync(join(elsewhere, 'inside', 'x.txt'))).toBe(false);
    expect(existsSync(join(dir, 'ok.txt'))).toBe(false);
  });
});
