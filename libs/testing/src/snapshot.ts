import type { PGlite } from '@electric-sql/pglite';

/**
 * What a preset's database holds when new, to put a released one back that way (~30 ms) instead
 * of loading the preset again (0.5-1.5 s, 4-5 s on a busy machine). Only rows can be put back:
 * a test that changed the schema (a new schema, table, column, type, function, role or grant)
 * leaves a database that is closed instead (`restore` answers false).
 */
export interface Snapshot {
  /** A digest of the catalog: what DDL changes. */
  shape: string;
  /** Every table of the database's own schemas, quoted. */
  tables: string[];
  /** The tables that had rows, and the statements that put them back. */
  seeded: string[];
  inserts: string[];
  /** The statement that puts every sequence back where it was. */
  sequences: string;
}

/** Counts, highest oids and digests of the catalogs that DDL adds to or changes. */
const SHAPE = `select concat_ws('/',
  (select count(*) || ':' || max(oid::int8) || ':' || md5(string_agg(concat_ws(',', oid, relname,
    relnamespace, relkind, relacl, reloptions, relrowsecurity, relpersistence), ';' order by oid))
    from pg_class),
  (select count(*) || ':' || md5(string_agg(concat_ws(',', attrelid, attnum, attname, atttypid,
    atttypmod, attnotnull, attisdropped, attgenerated, attidentity), ';' order by attrelid, attnum))
    from pg_attribute),
  (select count(*) || ':' || max(oid::int8) from pg_type),
  (select count(*) || ':' || max(oid::int8) from pg_proc),
  (select count(*) || ':' || max(oid::int8) || ':' || md5(string_agg(concat_ws(',', oid,
    nspname, nspacl), ';' order by oid)) from pg_namespace
    where nspname !~ '^pg_(toast_)?temp_'),
  (select count(*) || ':' || max(oid::int8) from pg_constraint),
  (select count(*) || ':' || max(oid::int8) from pg_trigger),
  (select count(*) || ':' || max(oid::int8) from pg_attrdef),
  (select count(*) || ':' || max(oid::int8) from pg_policy),
  (select count(*) || ':' || max(oid::int8) from pg_authid),
  (select count(*) || ':' || max(oid::int8) from pg_database),
  (select count(*) || ':' || max(oid::int8) from pg_extension),
  (select count(*) from pg_db_role_setting),
  (select count(*) from pg_default_acl)) as shape`;

const TABLES = `select c.oid::regclass::text as name from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r' and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
  order by 1`;

/** Columns that an insert may set (not generated ones), quoted. */
const COLUMNS = `select quote_ident(attname) as name from pg_attribute
  where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
  order by attnum`;

const SEQUENCES = `select format('setval(%L, %s, %s)', c.oid::regclass::text,
    coalesce(s.last_value, s.start_value), (s.last_value is not null)::text) as setval
  from pg_sequences s
  join pg_namespace n on n.nspname = s.schemaname
  join pg_class c on c.relnamespace = n.oid and c.relname = s.sequencename`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function nonEmpty(pglite: PGlite, tables: string[]) {
  if (tables.length === 0) return [];
  const checks = tables.map((t) => `case when exists (select from ${t}) then ${literal(t)} end`);
  const { rows } = await pglite.query<{ tables: string[] }>(
    `select array_remove(array[${checks.join(',')}]::text[], null) as tables`,
  );
  return rows[0].tables;
}

/** Reads what a new database of a preset holds (before any test used it). */
export async function snapshot(pglite: PGlite): Promise<Snapshot> {
  const shape = (await pglite.query<{ shape: string }>(SHAPE)).rows[0].shape;
  const tables = (await pglite.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
  const seeded = await nonEmpty(pglite, tables);
  const inserts: string[] = [];
  for (const table of seeded) {
    const columns = (await pglite.query<{ name: string }>(COLUMNS, [table])).rows.map(
      (r) => r.name,
    );
    const { rows } = await pglite.query<{ rows: string[] }>(
      `select array_agg(x::text) as rows from ${table} x`,
    );
    // Record text in, record text out: exact for every type.
    const values = `array[${rows[0].rows.map(literal).join(',')}]::text[]`;
    inserts.push(
      `insert into ${table} (${columns.join(', ')}) overriding system value
       select ${columns.map((c) => `(x).${c}`).join(', ')}
       from (select r::${table} as x from unnest(${values}) r) s`,
    );
  }
  const setvals = (await pglite.query<{ setval: string }>(SEQUENCES)).rows.map((r) => r.setval);
  const sequences = setvals.length ? `select ${setvals.join(', ')}` : '';
  return { shape, tables, seeded, inserts, sequences };
}

/**
 * Puts the database back as the snapshot found it, and ends whatever the test's session set
 * (settings, listens, advisory locks, temporary tables): true when done, false when the schema
 * differs (or anything fails), and the database should be closed instead.
 */
export async function restore(pglite: PGlite, before: Snapshot): Promise<boolean> {
  try {
    if (pglite.closed) return false;
    await pglite.exec('rollback');
    await pglite.exec('discard all');
    const now = (await pglite.query<{ shape: string }>(SHAPE)).rows[0].shape;
    if (now !== before.shape) return false;
    const dirty = [...new Set([...(await nonEmpty(pglite, before.tables)), ...before.seeded])];
    await pglite.exec(
      [
        // No triggers (audit rows, notifications) while rows are put back, in any order.
        'begin',
        'set local session_replication_role = replica',
        dirty.length ? `truncate ${dirty.join(', ')} cascade` : '',
        ...before.inserts,
        before.sequences,
        'commit',
      ]
        .filter(Boolean)
        .join(';\n'),
    );
    return true;
  } catch {
    return false;
  }
}
