import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPGlite, openDatabase, PGLITE_EXTENSIONS, type PlatformDatabase } from '@platform/db';

/**
 * The file holding an empty database's data directory, for this PGlite build and these
 * extensions: made once per machine by the first test file that needs it (initdb takes 2-4 s in
 * each new PGlite; loading its dump half a second).
 */
async function emptyDumpFile() {
  const wasm = await stat(join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm'));
  const build = `${wasm.size}-${Math.round(wasm.mtimeMs)}-${Object.keys(PGLITE_EXTENSIONS).join('-')}`;
  return join(tmpdir(), `platform-test-pglite-${build}.tar`);
}

let dump: Promise<Blob | undefined> | undefined;

/** A new PGlite holding an empty database: from the dump (read once per file), else it makes it. */
async function emptyPGlite(): Promise<PGlite> {
  const file = await emptyDumpFile();
  dump ??= readFile(file).then(
    (bytes) => new Blob([bytes]),
    () => undefined,
  );
  const loadDataDir = await dump;
  if (loadDataDir)
    return PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS, loadDataDir });
  const pglite = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  const made = await pglite.dumpDataDir('none');
  // Whole or not at all, whichever test process writes it first.
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await made.arrayBuffer()));
  await rename(partial, file);
  dump = Promise.resolve(made);
  return pglite;
}

const idle: PGlite[] = [];
/** Set once the file's cleanup ran: a database released later (an afterAll) is closed, not pooled. */
let filesDone = false;

/** The schemas a test made: all but PostgreSQL's own and `public`. */
const MADE_SCHEMAS = `select nspname as name from pg_namespace
  where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public')`;
/** Drops them and empties `public`, leaving the database as new. */
const resetStatement = (rows: { name: string }[]) =>
  `${rows.map((r) => `drop schema "${r.name}" cascade;`).join('')}
   drop schema public cascade; create schema public;`;

async function reset(pglite: PGlite) {
  const { rows } = await pglite.query<{ name: string }>(MADE_SCHEMAS);
  await pglite.exec(resetStatement(rows));
}

/** PostgreSQL databases a test of this file released, emptied, for the next (as `idle`). */
const idleServers: TestDatabaseServer[] = [];

/** Closes the PGlite instances and drops the databases this test file made; after each file. */
export async function closeTestDatabases() {
  filesDone = true;
  dump = undefined;
  await Promise.all([
    ...idle.splice(0).map((pglite) => pglite.close()),
    ...idleServers.splice(0).map((server) => server.drop()),
  ]);
}

/**
 * An empty PGlite database. A new instance loads the empty database's dump (~0.5 s); it is handed
 * out again, emptied, after a test closes its database (~20 ms).
 */
async function freshPGlite(): Promise<PlatformDatabase> {
  const pglite = idle.pop() ?? (await emptyPGlite());
  const db = fromPGlite(pglite, { owned: false });
  let released = false;
  return {
    ...db,
    async close() {
      if (released) return;
      released = true;
      await db.close();
      if (filesDone) return pglite.close();
      await reset(pglite);
      idle.push(pglite);
    },
  };
}

/**
 * A new, empty database: PGlite in memory, or a database on the server of DATABASE_URL. Either is
 * handed out again, emptied, once a test closes it: on PostgreSQL a new database costs ~95 ms
 * (create and drop), emptying one ~15 ms.
 */
export async function testDatabase(): Promise<PlatformDatabase> {
  if (!process.env.DATABASE_URL) return freshPGlite();
  const server = idleServers.pop() ?? (await testDatabaseServer())!;
  const db = await openDatabase({ url: server.url, poolSize: 5 });
  let released = false;
  return {
    ...db,
    async close() {
      if (released) return;
      released = true;
      await db.close();
      if (filesDone) return server.drop();
      await withClient(server.url, async (client) => {
        const { rows } = await client.query<{ name: string }>(MADE_SCHEMAS);
        await client.query(resetStatement(rows));
      });
      idleServers.push(server);
    },
  };
}

interface TestDatabaseServer {
  url: string;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL set: a new, empty database on that server, for a process a test starts.
 * Without it: undefined (such a process gets a DATA_DIR of its own instead).
 */
export async function testDatabaseServer(): Promise<TestDatabaseServer | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const adminQuery = (url: string, statement: string) =>
  withClient(url, async (admin) => void (await admin.query(statement)));
