import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// The version of what the dependency graph is made of (services, dependencies, APIs, who provides
// and consumes them): a single row, bumped by triggers in the
// transaction of every statement that writes them, whoever writes (this process, another process
// on the same database, plain SQL). The graph walk keeps the graph in memory and reloads it when
// the version it reads differs from the one it loaded: a version is visible exactly when the
// write that bumped it is, so a walk never sees an older graph than a query would.
// The triggers run before each statement, on every write of these tables (an update of a
// description too): a transaction takes this row's lock before any row lock of theirs, so two
// writers always queue on it in the same order (a trigger on some columns only let one lock a
// service first and the version second while another did the reverse: a deadlock). It is held
// until commit, so such writes run one at a time (the catalog is written rarely). Its value is
// never one used before, and the row cannot be deleted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('graph_version')
    .addColumn('id', 'boolean', (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into catalog.graph_version default values`.execute(db);
  await sql`
    create function catalog.bump_graph_version() returns trigger language plpgsql as $$
    begin
      -- Never a value used before (a restored dump or a recreated row cannot bring one back).
      update catalog.graph_version
        set version = greatest(version + 1, (extract(epoch from clock_timestamp()) * 1000000)::bigint);
      return null;
    end $$`.execute(db);
  await sql`
    create function catalog.keep_graph_version() returns trigger language plpgsql as $$
    begin
      raise exception 'catalog.graph_version keeps exactly one row';
    end $$`.execute(db);
  await sql`
    create trigger graph_version_kept before delete or truncate on catalog.graph_version
    for each statement execute function catalog.keep_graph_version()`.execute(db);
  const tables: Array<[string, string]> = [
    ['services', 'insert or delete or truncate or update'],
    ['dependencies', 'insert or delete or truncate or update'],
    ['apis', 'insert or delete or truncate or update'],
    ['service_apis', 'insert or delete or truncate or update'],
  ];
  for (const [table, events] of tables)
    await sql`
      create trigger ${sql.raw(`${table}_graph_version`)} before ${sql.raw(events)}
      on ${sql.table(`catalog.${table}`)}
      for each statement execute function catalog.bump_graph_version()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['services', 'dependencies', 'apis', 'service_apis'])
    await sql`drop trigger ${sql.raw(`${table}_graph_version`)} on ${sql.table(`catalog.${table}`)}`.execute(
      db,
    );
  await sql`drop function catalog.bump_graph_version()`.execute(db);
  await sql`drop trigger graph_version_kept on catalog.graph_version`.execute(db);
  await sql`drop function catalog.keep_graph_version()`.execute(db);
  await db.schema.dropTable('graph_version').execute();
}
