import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPGlite, openDatabase, type PlatformDatabase } from '@platform/db';

let template: Promise<PGlite> | undefined;
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
  const instances = [...idle.splice(0), ...(template ? [await template] : [])];
  template = undefined;
  await Promise.all(instances.map((pglite) => pglite.close()));
}

/**
 * An empty PGlite database. Instances are made once per test process (a new one takes ~3 s, a clone
 * ~0.5 s) and handed out again, emptied, after a test closes its database (~20 ms).
 */
async function freshPGlite(): Promise<PlatformDatabase> {
  template ??= PGlite.create('memory://');
  const pglite = idle.pop() ?? ((await (await template).clone()) as PGlite);
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
