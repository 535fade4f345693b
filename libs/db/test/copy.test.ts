import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  copyInto,
  copyRow,
  fromPGlite,
  MEMORY,
  openDatabase,
  sql,
  type PlatformDatabase,
} from '../src/index';

// copyInto (issue 39) on each way the platform reaches a database: PGlite in a worker thread,
// PGlite in this thread, PostgreSQL when DATABASE_URL is set.

const backends: Array<[string, () => Promise<PlatformDatabase>]> = [
  ['PGlite in a worker thread', () => openDatabase({ dataDir: MEMORY })],
  ['PGlite in this thread', async () => fromPGlite(await PGlite.create(MEMORY))],
];
if (process.env.DATABASE_URL)
  backends.push(['PostgreSQL', () => openDatabase({ url: process.env.DATABASE_URL, poolSize: 2 })]);

describe.each(backends)('%s', (_name, open) => {
  let db: PlatformDatabase;
  const table = `copy_${randomBytes(4).toString('hex')}`;
  const target = { table, columns: ['a', 'b', 'c'] };
  const rows = async () =>
    (
      await sql<{ a: string; b: number; c: string | null }>`select a, b, c from ${sql.table(table)}
      order by b`.execute(db.kysely)
    ).rows;

  beforeAll(async () => {
    db = await open();
    await sql`create table ${sql.table(table)} (a text, b int, c text)`.execute(db.kysely);
  }, 60_000);
  beforeEach(() => sql`truncate ${sql.table(table)}`.execute(db.kysely));
  afterAll(async () => {
    await sql`drop table ${sql.table(table)}`.execute(db.kysely);
    await db.close();
  });

  it('copies rows of COPY text, escapes and nulls kept, however the pieces and statements cut them', async () => {
    const values = Array.from({ length: 3000 }, (_, i) =>
      copyRow([`v${i}\t"x"\\${'é'.repeat(i % 3)}`, i, i % 2 ? null : 'two\nlines']),
    );
    const pieces = values.join('').match(/[\s\S]{1,777}/g)!; // cut anywhere, rows too
    expect(await copyInto(db.kysely, target, pieces, { chunkBytes: 10_000 })).toBe(3000);
    const copied = await rows();
    expect(copied).toHaveLength(3000);
    expect(copied[2]).toEqual({ a: 'v2\t"x"\\éé', b: 2, c: 'two\nlines' });
    expect(copied[2999]).toEqual({ a: 'v2999\t"x"\\éé', b: 2999, c: null });
  });

  it('copies CSV with its header, a quoted line break across pieces and statements', async () => {
    const csv = ['a,b,c\n', '"q,1', '",1,"x\n', 'y"\n', ...Array(500).fill('"z ""q""",2,\n')];
    const options = { chunkBytes: 1_000 };
    expect(
      await copyInto(db.kysely, { ...target, format: 'csv', header: true }, csv, options),
    ).toBe(501);
    const copied = await rows();
    expect(copied[0]).toEqual({ a: 'q,1', b: 1, c: 'x\ny' });
    expect(copied[500]).toEqual({ a: 'z "q"', b: 2, c: null });
  });

  it('copies inside the caller’s transaction (rolled back with it) and fails on bad data', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await copyInto(trx, target, copyRow(['inside', 1, null]));
        expect(
          (await sql`select count(*)::int as n from ${sql.table(table)}`.execute(trx)).rows,
        ).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(copyInto(db.kysely, target, 'x\tnot a number\t\\N\n')).rejects.toThrow(
      /invalid input syntax for type integer/,
    );
    expect(await rows()).toEqual([]);
    // The connection serves again after a failed COPY.
    expect(await copyInto(db.kysely, target, copyRow(['after', 3, null]))).toBe(1);
  });
});
