import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// The version of what the dependency graph is made of (services' ids and names, dependencies,
// APIs' ids and names, who provides and consumes them): a single row, bumped by triggers in the
// transaction of every statement that writes them, whoever writes (this process, another process
// on the same database, plain SQL). The graph walk keeps the graph in memory and reloads it when
// the version it reads differs from the one it loaded: a version is visible exactly when the
// write that bumped it is, so a walk never sees an older graph than a query would.
// The triggers run before each statement: the row lock is taken before any row of the statement is,
// so writers of these tables queue on it in one order (no deadlock between two of them); it is
// held until commit, so such writes run one at a time (the catalog is written rarely).
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
      update catalog.graph_version set version = version + 1;
      return null;
    end $$`.execute(db);
  const tables: Array<[string, string]> = [
    ['services', 'insert or delete or truncate or update of id, name'],
    ['dependencies', 'insert or delete or truncate or update'],
    ['apis', 'insert or delete or truncate or update of id, name'],
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
  await db.schema.dropTable('graph_version').execute();
}
