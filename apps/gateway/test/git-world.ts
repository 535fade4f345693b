import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Identity } from '@platform/core';
import { AUTH_ENV, identityHeaders, listen, person } from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// The whole platform (authentication on, git on) on a real port, people with real API keys made
// by the identity service, and the real `git` command: what the smart HTTP tests share.

export const ANN = person('ann@example.com', 'member', ['payments']);
export const BOB = person('bob@example.com', 'member');
export const ADMIN = person('root@example.com', 'admin');

export interface GitRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface GitWorld {
  gw: GatewayUnderTest;
  url: string;
  dir: string;
  logs: string[];
  /** A JSON call to the gateway as a person (signed identity), answering status and body. */
  call(
    identity: Identity,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: { data?: unknown; error?: { message: string } } }>;
  /** A personal API key of `identity` with these scopes. */
  key(identity: Identity, scopes: string[]): Promise<string>;
  /** `http://git:<key>@host/git/<owner>/<name>.git` (no key: none in the URL). */
  remote(fullName: string, key?: string): string;
  /**
   * The git command in `cwd` (created), with a HOME of its own and no prompt; asynchronous (the
   * server answering it runs in this process).
   */
  git(cwd: string, ...args: string[]): Promise<GitRun>;
  /** Like git, throwing with git's stderr when it fails. */
  ok(cwd: string, ...args: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function gitWorld(
  env: Record<string, string> = {},
  options: { auth?: boolean } = {},
): Promise<GitWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'git-http-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  writeFileSync(
    join(home, '.gitconfig'),
    '[user]\n\tname = Ann\n\temail = ann@example.com\n[init]\n\tdefaultBranch = main\n',
  );
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const gw = await gatewayUnderTest(
    {
      ...(options.auth === false ? {} : AUTH_ENV),
      AUTH_ADMINS: ADMIN.kind === 'user' ? ADMIN.email : '',
      FEATURE_GIT: 'true',
      GIT_DATA_DIR: join(dir, 'data'),
      GIT_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
    { logStream },
  );
  const url = await listen(gw.app);
  const host = url.replace(/^http:\/\//, '');

  const call: GitWorld['call'] = async (identity, method, path, body, headers = {}) => {
    const res = await gw.app.inject({
      method: method as 'GET',
      url: path,
      // As a browser at the listening address would send it (the clone URLs answered use it).
      headers: { ...(await identityHeaders(identity)), host, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const git = (cwd: string, ...args: string[]): Promise<GitRun> => {
    mkdirSync(cwd, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status) =>
        resolve({
          status,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        }),
      );
    });
  };
  return {
    gw,
    url,
    dir,
    logs,
    call,
    async key(identity, scopes) {
      const name = `key-${Math.random().toString(36).slice(2, 8)}`;
      const res = await call(identity, 'POST', '/api/v1/passport/keys', { name, scopes });
      if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body.data as { key: string }).key;
    },
    remote: (fullName, key) =>
      `http://${key === undefined ? '' : `git:${key}@`}${host}/git/${fullName}.git`,
    git,
    async ok(cwd, ...args) {
      const run = await git(cwd, ...args);
      if (run.status !== 0)
        throw new Error(`git ${args.join(' ')}: ${run.status}\n${run.stderr}${run.stdout}`);
      return run.stdout.trim();
    },
    async close() {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
