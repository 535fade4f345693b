import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { onceFor } from '@platform/core';
import { fromPGlite, openDatabase, PGLITE_EXTENSIONS, type PlatformDatabase } from '@platform/db';
import { restore, snapshot, type Snapshot } from './snapshot';

/**
 * What a test database holds when the test gets it: what `prepare` made of an empty database
 * (the migrations of a whole gateway, say), made once per machine and copied for each test.
 * `sources`, files or folders (those absent are passed over), are what `prepare` runs: the copy
 * is made again whenever one of them changes.
 */
export interface DatabasePreset {
  name: string;
  sources: readonly string[];
  prepare(db: PlatformDatabase): Promise<unknown>;
}

const keys = new WeakMap<DatabasePreset, Promise<string>>();

/** The files a source names: itself, those in it when it is a folder, none when it is absent. */
async function filesOf(source: string): Promise<string[]> {
  const found = await stat(source).catch(() => undefined);
  if (!found?.isDirectory()) return found ? [source] : [];
  const entries = await readdir(source, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The preset's name and a digest of its sources' contents. */
const keyOf = (preset: DatabasePreset): Promise<string> =>
  onceFor(keys, preset, async () => {
    const digest = createHash('sha256');
    const files = (await Promise.all(preset.sources.map(filesOf))).flat().sort();
    for (const file of files) digest.update(file).update(await readFile(file));
    return `${preset.name}-${digest.digest('hex').slice(0, 16)}`;
  });

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

/** A new PGlite holding the preset's database (empty without one): from its dump, else made. */
async function newPGlite(preset?: DatabasePreset): Promise<PGlite> {
  const key = preset ? await keyOf(preset) : '';
  const file = await dumpFile(key);
  if (!dumps.has(key))
    dumps.set(
      key,
      readFile(file).then(
        (bytes) => new Blob([bytes]),
        () => undefined,
      ),
    );
  const loadDataDir = await dumps.get(key);
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

interface TestDatabaseServer {
  url: string;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL set: a new database on that server (empty, or as the preset makes it), for a
 * test or a process a test starts. Without it: undefined (such a process gets a DATA_DIR of its
 * own instead).
 */
export async function testDatabaseServer(
  preset?: DatabasePreset,
): Promise<TestDatabaseServer | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const template = preset ? await templateDatabase(url, preset) : undefined;
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}${template ? ` template ${template}` : ''}`);
  return {
    url: databaseUrl(url, name),
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
  };
}

function databaseUrl(url: string, name: string) {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * The database the preset makes, on the server of `url`, to copy (`create database ... template`):
 * made once per server and preset key. Made under a name of its own, then renamed, so that test
 * processes making it at once never copy one half made.
 */
async function templateDatabase(url: string, preset: DatabasePreset) {
  const name = `platform_template_${(await keyOf(preset)).replace(/-/g, '_')}`;
  const exists = () =>
    withClient(url, (admin) =>
      admin.query('select 1 from pg_database where datname = $1', [name]),
    ).then((result) => result.rowCount === 1);
  if (await exists()) return name;
  const partial = `${name}_${process.pid}`;
  await adminQuery(url, `create database ${partial}`);
  const db = await openDatabase({ url: databaseUrl(url, partial), poolSize: 1 });
  try {
    await preset.prepare(db);
  } catch (error) {
    // A preset that fails leaves no half-made database behind.
    await db.close();
    await adminQuery(url, `drop database if exists ${partial} with (force)`);
    throw error;
  }
  await db.close();
  // The server may still be ending the session just closed: a rename waits for it to go.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(url, `alter database ${partial} rename to ${name}`);
      return name;
    } catch (error) {
      if (await exists()) break; // another process made it first
      if (attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await adminQuery(url, `drop database if exists ${partial} with (force)`);
  return name;
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
