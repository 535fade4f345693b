import { sql, type Kysely, type Migrations, type PlatformDatabase } from '@platform/db';

// A table of things, for the tests of test databases.

export const things: Migrations = {
  '001-things': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('things')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('things_name_key')
        .unique()
        .on('things')
        .expression(sql`lower(name)`)
        .execute();
    },
  },
};

/** Statements one at a time (a prepared statement takes one). */
export async function run(d: PlatformDatabase, ...statements: string[]) {
  for (const statement of statements) await sql.raw(statement).execute(d.kysely);
}

export interface ThingsDb {
  things: { id: string; name: string; n: number };
}
