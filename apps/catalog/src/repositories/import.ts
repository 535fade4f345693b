import { jsonb, sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import { keyInSql, keyOf } from './named.js';
import { linksOf } from './relations.js';

/** The collections an import writes, by the name the plan gives them, in the order it writes. */
export const TABLE = {
  owner: 'owners',
  domain: 'domains',
  system: 'systems',
  api: 'apis',
  service: 'services',
  template: 'templates',
} as const;
export type ImportTable = (typeof TABLE)[keyof typeof TABLE];
export type ImportTarget = keyof typeof TABLE;

/** A stored record as an import compares it: its columns, and a service's links as ids. */
export interface ExistingRow {
  id: string;
  namespace: string;
  name: string;
  [column: string]: unknown;
}

/** The `[namespace, name]` of the records of each collection an import names (owners: for memberships). */
export type NamedKeys = Record<ImportTarget, Array<[string, string]>>;

/** A membership as stored: which side declared it (a user's `memberOf`, a group's `members`). */
export interface Membership {
  group_id: string;
  member_id: string;
  from_member: boolean;
  from_group: boolean;
}

/**
 * The records of each collection with one of these namespaces and names (in any case, through the
 * unique index), in one query per collection, plus one for the links of the services; every owner
 * (to follow parent chains), and the memberships of the owners the import names (one query).
 */
export async function loadExisting(db: CatalogDb, names: NamedKeys) {
  const owners = (await db
    .selectFrom('owners')
    .select([
      'id',
      'namespace',
      'name',
      'email',
      'team',
      'kind',
      'type',
      'picture',
      'description',
      'parent_id',
      'created_by',
      'members',
    ])
    .execute()) as ExistingRow[];
  const named = async (table: Exclude<ImportTable, 'owners'>, list: Array<[string, string]>) =>
    list.length === 0
      ? []
      : ((await db
          .selectFrom(table as 'services')
          .selectAll()
          .where(keyInSql(list))
          .execute()) as unknown as ExistingRow[]);
  const services = await named('services', names.service);
  const links = await linksOf(
    db,
    services.map((row) => row.id),
  );
  const touched = new Set(names.owner.map(([namespace, name]) => keyOf(namespace, name)));
  const ownerIds = owners
    .filter((row) => touched.has(keyOf(row.namespace, row.name)))
    .map((row) => row.id);
  const memberships: Membership[] =
    ownerIds.length === 0
      ? []
      : await db
          .selectFrom('memberships')
          .selectAll()
          .where((eb) => eb.or([eb('member_id', 'in', ownerIds), eb('group_id', 'in', ownerIds)]))
          .execute();
  return {
    owner: owners,
    domain: await named('domains', names.domain),
    system: await named('systems', names.system),
    api: await named('apis', names.api),
    service: services.map((row) => ({ ...row, ...links.get(row.id)! })),
    template: await named('templates', names.template),
    memberships,
  };
}

const JSON_COLUMNS = new Set(['tags', 'links', 'annotations', 'descriptor']);
const asColumns = (columns: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(columns).map(([key, value]) => [
      key,
      JSON_COLUMNS.has(key) ? jsonb(value) : value,
    ]),
  );

/**
 * Rows an insert statement takes: PostgreSQL binds at most 65,535 parameters a statement and a
 * service row has about ten, so one statement for 10,000 rows would be refused.
 */
export const INSERT_CHUNK = 1000;

/** Inserts new records of one collection, INSERT_CHUNK rows a statement (in the import's transaction). */
export async function insertRows(
  db: CatalogDb,
  table: ImportTable,
  rows: Array<Record<string, unknown>>,
) {
  for (let at = 0; at < rows.length; at += INSERT_CHUNK)
    await db
      .insertInto(table as 'services')
      .values(rows.slice(at, at + INSERT_CHUNK).map(asColumns) as never)
      .execute();
}

/** Sets the columns of one record and its updated time (run in the import's transaction). */
export async function updateRow(
  db: CatalogDb,
  table: ImportTable,
  id: string,
  columns: Record<string, unknown>,
) {
  await db
    .updateTable(table as 'services')
    .set({ ...asColumns(columns), updated_at: sql`now()` } as never)
    .where('id', '=', id)
    .execute();
}

/**
 * Writes the memberships the import decided (in its transaction): each pair with the sides that
 * declare it now; a pair no side declares any more is deleted.
 */
export async function writeMemberships(
  db: CatalogDb,
  changes: { write: Membership[]; remove: Array<{ group_id: string; member_id: string }> },
) {
  for (let at = 0; at < changes.remove.length; at += INSERT_CHUNK) {
    const pairs = changes.remove
      .slice(at, at + INSERT_CHUNK)
      .map(({ group_id, member_id }) => sql`(${group_id}, ${member_id})`);
    await db
      .deleteFrom('memberships')
      .where(sql<boolean>`(group_id, member_id) in (${sql.join(pairs)})`)
      .execute();
  }
  for (let at = 0; at < changes.write.length; at += INSERT_CHUNK)
    await db
      .insertInto('memberships')
      .values(changes.write.slice(at, at + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['group_id', 'member_id']).doUpdateSet((eb) => ({
          from_member: eb.ref('excluded.from_member'),
          from_group: eb.ref('excluded.from_group'),
        })),
      )
      .execute();
}
