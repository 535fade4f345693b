import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '@platform/db';
import { keyOf, type DatabasePreset } from './presets.js';

// Test databases on the PostgreSQL server of DATABASE_URL (see database.ts for PGlite).

export interface TestDatabaseServer {
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
  const key = (await keyOf(preset)).replace(/-/g, '_');
  // PostgreSQL cuts names at 63 bytes, and `<name>_<pid>` must fit too: a long key is shortened
  // to its start and a digest of all of it.
  const full = `platform_template_${key}`;
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const name = full.length <= 54 ? full : `${full.slice(0, 37)}_${digest}`;
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

export const adminQuery = (url: string, statement: string) =>
  withClient(url, async (admin) => void (await admin.query(statement)));
