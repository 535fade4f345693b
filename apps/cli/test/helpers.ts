import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startProcess, testDatabaseServer, type RunningProcess } from '@platform/testing';

// The built artefacts, as `npx platform` runs them (tests assume `npx tsc -b apps/cli apps/gateway`).
const root = join(__dirname, '..', '..', '..');
export const bin = join(root, 'apps/cli/bin/platform.js');
const gatewayMain = join(root, 'apps/gateway/dist/main.js');

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A temporary directory, removed after the file's tests. */
const dirs: string[] = [];
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-cli-'));
  dirs.push(dir);
  return dir;
}

/** Runs the real binary with only the environment given (no PLATFORM_* of the developer's). */
export function cli(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: tempDir(), ...env }, timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
    else child.stdin?.end();
  });
}

/** One gateway per test file on its own database; `env` points the CLI at it. */
export async function startGateway() {
  const server = await testDatabaseServer();
  const storage: Record<string, string> = server
    ? { DATABASE_URL: server.url }
    : { DATA_DIR: tempDir() };
  const gateway: RunningProcess = await startProcess(
    gatewayMain,
    { ...storage, AUTH_DISABLED: 'true' },
    { timeoutMs: 60_000 },
  );
  const config = tempDir();
  return {
    gateway,
    env: { PLATFORM_URL: gateway.url, XDG_CONFIG_HOME: config },
    async stop() {
      await gateway.stop();
      await server?.drop();
      dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/** Runs a command that must succeed with --json, and answers its parsed output. */
export async function json(args: string[], env: Record<string, string>): Promise<any> {
  const result = await cli([...args, '--json'], env);
  if (result.code !== 0)
    throw new Error(`platform ${args.join(' ')}: ${result.code}\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A local HTTP server answering as the handler says (a gateway that misbehaves); `url` reaches it. */
export async function fakeServer(handler: RequestListener) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The platform's envelope of a success. */
export const envelope = (data: unknown) => JSON.stringify({ success: true, data });
