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

/** Drops every schema a test made, leaving the instance as new. */
async function reset(pglite: PGlite) {
  const { rows } = await pglite.query<{ name: string }>(
    `select nspname as name from pg_namespace
     where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public')`,
  );
  const drops = rows.map((r) => `drop schema "${r.name}" cascade;`).join('');
  await pglite.exec(`${drops} drop schema public cascade; create schema public;`);
}

/** Closes the PGlite instances this test file made; run after each file (jest.setup.ts). */
export async function closeTestDatabases() {
  filesDone = true;
  dump = undefined;
  await Promise.all(idle.splice(0).map((pglite) => pglite.close()));
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

/** A new, empty database: PGlite in memory, or a new database on the server of DATABASE_URL. */
export async function testDatabase(): Promise<PlatformDatabase> {
  const server = await testDatabaseServer();
  if (!server) return freshPGlite();
  const db = await openDatabase({ url: server.url, poolSize: 5 });
  return {
    ...db,
    async close() {
      await db.close();
      await server.drop();
    },
  };
}

/**
 * With DATABASE_URL set: a new, empty database on that server, for a process a test starts.
 * Without it: undefined (such a process gets a DATA_DIR of its own instead).
 */
export async function testDatabaseServer(): Promise<
  { url: string; drop(): Promise<void> } | undefined
> {
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

async function adminQuery(url: string, statement: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
