import { badRequest } from '@platform/core';
import { jsonb, selectByIdOrName, sql } from '@platform/db';
import { SCHEMA, type CatalogDb } from '../database.js';

/**
 * Systems and owners: named records that services (and APIs) point at. A system points at its
 * owner, an owner (a group) at its parent group; each is read with that record's name.
 */
export type GroupTable = 'systems' | 'owners';

/** A record as stored, with the name of the record it points at (`owner` or `parent`). */
export interface GroupRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  [column: string]: unknown;
}

/** Columns as the routes prepare them: undefined keeps a column, null clears it. */
export type GroupColumns = Record<string, unknown>;

export interface GroupFilter {
  limit: number;
  offset: number;
  owner?: string;
  tag?: string;
  kind?: string;
  parent?: string;
  /** Owners with this email among their members (any case). */
  member?: string;
}

const selectSystems = (db: CatalogDb) =>
  db
    .selectFrom('systems as g')
    .leftJoin('owners as l', 'l.id', 'g.owner_id')
    .selectAll('g')
    .select('l.name as owner');

const selectOwners = (db: CatalogDb) =>
  db
    .selectFrom('owners as g')
    .leftJoin('owners as l', 'l.id', 'g.parent_id')
    .selectAll('g')
    .select('l.name as parent');

const byLinkName = (name: string) => [sql`lower(l.name)`, '=', name.toLowerCase()] as const;

/** A page by name, filtered; one query. */
export async function listGroups(
  db: CatalogDb,
  table: GroupTable,
  filter: GroupFilter,
): Promise<GroupRow[]> {
  if (table === 'owners') return ownersQuery(db, filter).execute();
  let query = selectSystems(db);
  if (filter.owner !== undefined) query = query.where(...byLinkName(filter.owner));
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`g.tags @> ${jsonb([filter.tag])}::jsonb`);
  return query
    .orderBy(sql`lower(g.name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/**
 * A page of owners. `member` is what every service asks to know a person's teams: the GIN index
 * on members answers its `@>` (members are stored in lower case).
 */
function ownersQuery(db: CatalogDb, filter: GroupFilter) {
  let query = selectOwners(db);
  if (filter.kind !== undefined) query = query.where('g.kind', '=', filter.kind as 'group');
  if (filter.parent !== undefined) query = query.where(...byLinkName(filter.parent));
  if (filter.member !== undefined)
    query = query.where(sql<boolean>`g.members @> ${jsonb([filter.member.toLowerCase()])}::jsonb`);
  return query
    .orderBy(sql`lower(g.name)`)
    .limit(filter.limit)
    .offset(filter.offset);
}

/** The plan of a page of owners, as EXPLAIN prints it (the tests check the index serves it). */
export async function explainOwners(db: CatalogDb, filter: GroupFilter) {
  const { rows } = await sql<{
    'QUERY PLAN': string;
  }>`explain ${ownersQuery(db, filter)}`.execute(db);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The record with the name it points at; undefined when there is none. */
export async function getGroup(
  db: CatalogDb,
  table: GroupTable,
  id: string,
): Promise<GroupRow | undefined> {
  return table === 'systems'
    ? selectSystems(db).where('g.id', '=', id).executeTakeFirst()
    : selectOwners(db).where('g.id', '=', id).executeTakeFirst();
}

/** The record with that id, else that name in any case; undefined when there is none. */
export const findGroup = <T extends GroupTable>(db: CatalogDb, table: T, idOrName: string) =>
  selectByIdOrName(db, table, idOrName);

/**
 * The system or owner a field names (BAD_REQUEST `Unknown <field>: x` when there is none);
 * undefined (not sent) and null (cleared) pass through.
 */
export async function linkedGroup<T extends GroupTable>(
  db: CatalogDb,
  table: T,
  field: string,
  idOrName: string | null | undefined,
) {
  if (idOrName == null) return idOrName;
  const row = await findGroup(db, table, idOrName);
  if (!row) throw badRequest(`Unknown ${field}: ${idOrName}`);
  return row;
}

/** The id to store for a link: undefined keeps it, null clears it. */
export const linkId = (row: { id: string } | null | undefined) =>
  row === undefined ? undefined : (row?.id ?? null);

/** Inserts the record; a name taken (in any case) throws the unique violation. */
export async function insertGroup(db: CatalogDb, table: GroupTable, columns: GroupColumns) {
  await db
    .insertInto(table)
    .values(columns as { id: string; name: string })
    .execute();
}

/** Changes the columns given; a name taken throws the unique violation. */
export async function updateGroup(
  db: CatalogDb,
  table: GroupTable,
  id: string,
  columns: GroupColumns,
) {
  await db
    .updateTable(table)
    .set({ ...(columns as { name?: string }), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Throws a foreign key violation while anything still points at it. */
export async function deleteGroup(db: CatalogDb, table: GroupTable, id: string) {
  await db.deleteFrom(table).where('id', '=', id).execute();
}

/** The services (id and name, by name) of a system or an owner. */
export function servicesOf(db: CatalogDb, table: GroupTable, id: string) {
  return db
    .selectFrom('services')
    .select(['id', 'name'])
    .where(table === 'systems' ? 'system_id' : 'owner_id', '=', id)
    .orderBy(sql`lower(name)`)
    .execute();
}

/** The groups (id and name, by name) whose parent the owner is. */
export function childrenOf(db: CatalogDb, id: string) {
  return db
    .selectFrom('owners')
    .select(['id', 'name'])
    .where('parent_id', '=', id)
    .orderBy(sql`lower(name)`)
    .execute();
}

/**
 * What still points at a system or an owner, by what it is (`services`, `child groups`,
 * `systems`, `APIs`) and then by name, in one query: what a refused delete names.
 */
export async function dependentsOf(db: CatalogDb, table: GroupTable, id: string) {
  const link = table === 'systems' ? 'system_id' : 'owner_id';
  const what = (label: string) => sql<string>`${label}::text`.as('what');
  let query = db
    .selectFrom('services')
    .select([what('services'), 'name'])
    .where(link, '=', id)
    .unionAll(
      db
        .selectFrom('apis')
        .select([what('APIs'), 'name'])
        .where(link, '=', id),
    );
  if (table === 'owners')
    query = query
      .unionAll(
        db
          .selectFrom('owners')
          .select([what('child groups'), 'name'])
          .where('parent_id', '=', id),
      )
      .unionAll(
        db
          .selectFrom('systems')
          .select([what('systems'), 'name'])
          .where('owner_id', '=', id),
      );
  const rows = await query.execute();
  const order = ['services', 'child groups', 'systems', 'APIs'];
  const byWhat = new Map<string, string[]>();
  for (const row of rows) byWhat.set(row.what, [...(byWhat.get(row.what) ?? []), row.name]);
  const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
  return order
    .filter((label) => byWhat.has(label))
    .map((label) => ({ what: label, names: byWhat.get(label)!.sort(byName) }));
}

/**
 * Serialises changes of owners' parents: an advisory lock held to the end of the caller's
 * transaction (a PATCH of a parent, an import), so two of them cannot each close half a cycle.
 */
export async function lockOwnerParents(db: CatalogDb) {
  await sql`select pg_advisory_xact_lock(hashtext(${`${SCHEMA}.owners.parent`}))`.execute(db);
}

/**
 * The chain of groups from `id` up through its parents (itself first), in one recursive query,
 * under lockOwnerParents.
 */
export async function ancestorsOf(db: CatalogDb, id: string) {
  await lockOwnerParents(db);
  const owners = sql.table(`${SCHEMA}.owners`);
  const { rows } = await sql<{ id: string; name: string }>`
    with recursive up(id, name, parent_id, depth) as (
      select id, name, parent_id, 0 from ${owners} where id = ${id}
      union all
      select o.id, o.name, o.parent_id, up.depth + 1
      from ${owners} as o join up on o.id = up.parent_id
      where up.depth < 100000
    )
    select id, name from up order by depth
  `.execute(db);
  return rows;
}
