import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPGlite, openDatabase, type PlatformDatabase } from '@platform/db';

let template: Promise<PGlite> | undefined;

/** A PGlite clone of one instance made once per test process (a clone takes ~0.5 s, a new one ~3 s). */
async function freshPGlite(): Promise<PlatformDatabase> {
  template ??= PGlite.create('memory://');
  return fromPGlite((await (await template).clone()) as PGlite);
}

/** A new, empty database: PGlite in memory, or a new database on the server of DATABASE_URL. */
export async function testDatabase(): Promise<PlatformDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return freshPGlite();
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString(), poolSize: 5 });
  return {
    ...db,
    async close() {
      await db.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
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

/** The test process's template PGlite is closed when the process ends; tests need not care. */
export async function closeTemplate() {
  if (template) await (await template).close();
  template = undefined;
}
