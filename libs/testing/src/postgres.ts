import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { chmod, chown } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testDatabaseServer } from './database.js';
import { deadUrl } from './service.js';

const run = promisify(execFile);

export interface PostgresServer {
  /** Connection string of its `postgres` database. */
  url: string;
  /** Stops the server: `fast` disconnects every client, `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort().reverse() : [];
  const dir = versions.map((v) => join(root, v, 'bin')).find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found; install postgresql');
  return dir;
}

/**
 * A PostgreSQL server of the test's own, which it may stop and start (a database outage), on a
 * free loopback port. Durable as in production (synchronous commits), so a stop loses nothing
 * that was committed. As root, the cluster belongs to the `postgres` user, as initdb requires.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binaries();
  const work = mkdtempSync(join(tmpdir(), 'platform-pg-'));
  const data = join(work, 'data');
  const port = new URL(await deadUrl()).port;
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    await chown(work, Number(stdout.trim()), -1);
    await chmod(work, 0o700);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args])
      : run(join(bin, tool), args);

  await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => {
    await pg('pg_ctl', [
      '-D',
      data,
      '-l',
      join(work, 'log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
      'start',
    ]);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async remove() {
      await stop('immediate').catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * A PostgreSQL database that several processes can share (PGlite cannot be): a new database on
 * the server of DATABASE_URL when it is set, or else a server of the test's own.
 */
export async function sharedPostgres(): Promise<{ url: string; remove(): Promise<void> }> {
  const server = await testDatabaseServer();
  if (server) return { url: server.url, remove: server.drop };
  const own = await startPostgres();
  return { url: own.url, remove: own.remove };
}
