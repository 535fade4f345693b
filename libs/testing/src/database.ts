import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fromPGlite, openDatabase, PGLITE_EXTENSIONS, type PlatformDatabase } from '@platform/db';
import { adminQuery, testDatabaseServer, type TestDatabaseServer } from './database-server.js';
import { keyOf, type DatabasePreset } from './presets.js';
import { restore, snapshot, type Snapshot } from './snapshot.js';

export type { DatabasePreset } from './presets.js';
export { testDatabaseServer } from './database-server.js';

/**
 * The file holding a database's data directory, for this PGlite build, these extensions and this
 * preset (none: empty): made once per machine by the first test file that needs it (initdb takes
 * 2-4 s in each new PGlite, the migrations of every service 1-1.5 s; loading a dump half a second).
 */
async function dumpFile(key: string) {
  const wasm = await stat(join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm'));
  const build = `${wasm.size}-${Math.round(wasm.mtimeMs)}-${Object.keys(PGLITE_EXTENSIONS).join('-')}`;
  return join(tmpdir(), `platform-test-pglite-${build}${key ? `-${key}` : ''}.tar`);
}

/** Removes the dumps this preset had before its sources last changed (40 MB each). */
async function removeOlderDumps(current: string) {
  const prefix = basename(current).replace(/[0-9a-f]{16}\.tar$/, '');
  for (const file of await readdir(dirname(current)))
    if (
      file !== basename(current) &&
      file.startsWith(prefix) &&
      /^[0-9a-f]{16}\.tar$/.test(file.slice(prefix.length))
    )
      await rm(join(dirname(current), file), { force: true });
}

/** The dumps this test file read, by preset key ('' for the empty database). */
const dumps = new Map<string, Promise<Blob | undefined>>();

/** The dump of the preset's database (key '' for the empty one), undefined until one is made. */
async function readDump(key: string): Promise<Blob | undefined> {
  const file = await dumpFile(key);
  if (!dumps.has(key))
    dumps.set(
      key,
      readFile(file).then(
        (bytes) => new Blob([bytes]),
        () => undefined,
      ),
    );
  return dumps.get(key);
}

/** The dump of the preset's database (the empty one without a preset): read, else made. */
export async function dumpOf(preset?: DatabasePreset): Promise<Blob> {
  const key = preset ? await keyOf(preset) : '';
  const read = await readDump(key);
  if (read) return read;
  await (await newPGlite(preset)).close();
  return (await dumps.get(key))!;
}

/** A new PGlite holding the preset's database (empty without one): from its dump, else made. */
async function newPGlite(preset?: DatabasePreset): Promise<PGlite> {
  const key = preset ? await keyOf(preset) : '';
  const file = await dumpFile(key);
  const loadDataDir = await readDump(key);
  if (loadDataDir)
    return PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS, loadDataDir });
  const pglite = preset
    ? await newPGlite()
    : await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  if (preset) {
    // A preset that fails leaves nothing behind: no dump, no instance.
    await preset.prepare(fromPGlite(pglite, { owned: false })).catch(async (error: unknown) => {
      await pglite.close();
      throw error;
    });
    await pglite.exec('checkpoint');
  }
  const made = await pglite.dumpDataDir('none');
  // Whole or not at all, whichever test process writes it first.
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await made.arrayBuffer()));
  await rename(partial, file);
  if (preset) await removeOlderDumps(file);
  dumps.set(key, Promise.resolve(made));
  return pglite;
}

/**
 * Drops every schema a test made (all but PostgreSQL's own) and empties `public`, leaving the
 * database as new: one statement, on either engine.
 */
const EMPTY_DATABASE = `do $$ declare name text; begin
  for name in select nspname from pg_namespace
    where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public')
  loop execute format('drop schema %I cascade', name); end loop;
  drop schema public cascade; create schema public;
end $$`;

/** Empty databases a test of this file released, for the next test that wants an empty one. */
const idle: PGlite[] = [];
/** Databases a test of this file released and that were put back as their preset made them. */
const idlePresets = new Map<string, PGlite[]>();
/** What each preset's database holds when new, read from the first one this file loaded. */
const pristine = new Map<string, Promise<Snapshot>>();
const idleServers: TestDatabaseServer[] = [];
/** Set once the file's cleanup ran: a database released later (an afterAll) is closed, not pooled. */
let filesDone = false;

/** Closes the PGlite instances and drops the databases this test file made; after each file. */
export async function closeTestDatabases() {
  filesDone = true;
  dumps.clear();
  pristine.clear();
  const presetsIdle = [...idlePresets.values()].flatMap((list) => list.splice(0));
  await Promise.all([
    ...idle.splice(0).map((pglite) => pglite.close()),
    ...presetsIdle.map((pglite) => pglite.close()),
    ...idleServers.splice(0).map((server) => server.drop()),
  ]);
}

/**
 * Where jest.setup.ts finds the cleanup after a test file's last test: set only in the files that
 * loaded this module (the setup importing it itself cost every other file ~1.5 s of loading).
 */
(globalThis as { __closeTestDatabases?: () => Promise<void> }).__closeTestDatabases =
  closeTestDatabases;

/** A PGlite for a test: empty, or as the preset makes it, reused when one was released. */
async function pgliteFor(preset?: DatabasePreset) {
  if (!preset) {
    const pglite = idle.pop() ?? (await newPGlite());
    return {
      pglite,
      async release() {
        await pglite.exec(EMPTY_DATABASE);
        idle.push(pglite);
      },
    };
  }
  const key = await keyOf(preset);
  const pool = idlePresets.get(key) ?? idlePresets.set(key, []).get(key)!;
  const reused = pool.pop();
  const pglite = reused ?? (await newPGlite(preset));
  if (!reused && !pristine.has(key)) pristine.set(key, snapshot(pglite));
  const before = await pristine.get(key)!;
  return {
    pglite,
    async release() {
      // Put back as new when the test only changed rows; a changed schema loads a new one.
      if (await restore(pglite, before)) pool.push(pglite);
      else await pglite.close();
    },
  };
}

/**
 * A new database for a test: PGlite in memory, or a database on the server of DATABASE_URL;
 * empty, or as the preset makes it. Once the test closes it, it is emptied (or put back as the
 * preset made it) and handed out again: a new PGlite loads a dump in 0.5-1.5 s (4-5 s on a busy
 * machine), emptying one takes ~20 ms and putting one back ~30 ms; on PostgreSQL creating and
 * dropping a database takes ~95 ms, emptying it ~15 ms.
 */
export async function testDatabase(preset?: DatabasePreset): Promise<PlatformDatabase> {
  if (!process.env.DATABASE_URL) {
    const { pglite, release } = await pgliteFor(preset);
    return released(fromPGlite(pglite, { owned: false }), async () => {
      if (filesDone) return pglite.close();
      await release().catch(() => pglite.close());
    });
  }
  const server = (!preset && idleServers.pop()) || (await testDatabaseServer(preset))!;
  const db = await openDatabase({ url: server.url, poolSize: 5 });
  return released(db, async () => {
    if (filesDone) return server.drop();
    await adminQuery(server.url, EMPTY_DATABASE);
    idleServers.push(server);
  });
}

/** The database, whose close (once, however often called) closes it and then runs `then`. */
function released(db: PlatformDatabase, then: () => Promise<void>): PlatformDatabase {
  let closed = false;
  return {
    ...db,
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
      await then();
    },
  };
}

/**
 * Two handles on one database, as two instances of a service have: on PostgreSQL two pools (a
 * server the run shares, or one started for it); on PGlite (one process only) the same
 * instance, which each service instance queries through a Kysely of its own.
 */
export async function oneDatabaseTwice() {
  const server = await testDatabaseServer();
  if (!server) {
    const db = await testDatabase();
    return { first: db, second: db, close: () => db.close() };
  }
  const first = await openDatabase({ url: server.url, poolSize: 2 });
  const second = await openDatabase({ url: server.url, poolSize: 2 });
  return {
    first,
    second,
    async close() {
      await Promise.all([first.close(), second.close()]);
      await server.drop();
    },
  };
}
