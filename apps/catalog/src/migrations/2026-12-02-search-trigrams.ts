import { sql, type Kysely, type RawBuilder } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Search finds its candidates through a trigram index per table instead of reading every row:
// pg_trgm's GIN indexes serve `like '%word%'` for words of 3 characters or more. Each index is on
// exactly the lower-cased text that search's candidate filter tests for that table
// (repositories/search.ts writes the same expressions, which must stay identical to these for the
// planner to use them). The expressions must be immutable: an owner's email and team are joined
// without concat_ws (stable), an API's type follows its tags instead of joining their JSON array.
// Without fastupdate, a write puts its trigrams straight into the index instead of a pending list
// that every search reads in full until a VACUUM merges it (PGlite never runs autovacuum), and
// which makes the planner price the index above a scan: writes cost more (about 0.2 ms a record
// on PGlite), searches stay indexed.
//
// The extension goes into this service's own schema, where the service may create objects
// (PostgreSQL 15 no longer lets every user create in `public`), and goes with it when the schema
// is dropped. pg_trgm is a trusted extension: the service's user needs CREATE on the database,
// which it has to create its schema. Installed already (in another schema, by an administrator):
// that one is used.
const SEARCHED: Record<string, RawBuilder<string>> = {
  services: sql`lower(name || ' ' || tags::text || ' ' || coalesce(description, ''))`,
  systems: sql`lower(name || ' ' || tags::text || ' ' || coalesce(description, ''))`,
  owners: sql`lower(name || ' ' || coalesce(email || ' ' || team, email, team, ''))`,
  apis: sql`lower(name || ' ' || tags::text || ' ' || type || ' ' || coalesce(description, ''))`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm with schema catalog`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension
    where extname = 'pg_trgm'`.execute(db);
  const ops = sql.raw(`${rows[0].schema}.gin_trgm_ops`);
  for (const [table, text] of Object.entries(SEARCHED))
    await sql`
      create index ${sql.id(`${table}_search_idx`)} on ${sql.table(`catalog.${table}`)}
      using gin ((${text}) ${ops}) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(SEARCHED))
    await sql`drop index ${sql.table(`catalog.${table}_search_idx`)}`.execute(db);
  // Only the one this migration made: one installed elsewhere may serve others.
  await sql`
    do $$ begin
      if exists (select from pg_extension where extname = 'pg_trgm'
                 and extnamespace = 'catalog'::regnamespace) then
        drop extension pg_trgm;
      end if;
    end $$`.execute(db);
}
