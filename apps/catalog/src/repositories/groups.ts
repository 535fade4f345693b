import { selectByIdOrName, sql } from '@platform/db';
import type { CatalogDb } from '../database.js';

/**
 * Systems and owners: named records that services point at, stored alike. Each has, besides id,
 * name and the stamps, columns of its own, which the API names alike.
 */
const OWN_COLUMNS = { systems: ['description'], owners: ['email', 'team'] } as const;
export type GroupTable = keyof typeof OWN_COLUMNS;

/** Fields as received: undefined keeps a column, null clears it; other keys are left out. */
export interface GroupFields {
  name?: string;
  [field: string]: string | null | undefined;
}
export type NewGroup = GroupFields & { name: string };

const ownColumns = (table: GroupTable, fields: GroupFields) =>
  Object.fromEntries(OWN_COLUMNS[table].map((column) => [column, fields[column]]));

export function listGroups(
  db: CatalogDb,
  table: GroupTable,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom(table)
    .selectAll()
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The record with that id, else that name in any case; undefined when there is none. */
export const findGroup = (db: CatalogDb, table: GroupTable, idOrName: string) =>
  selectByIdOrName(db, table, idOrName);

/** The stored record; a name taken (in any case) throws the unique violation. */
export function insertGroup(db: CatalogDb, table: GroupTable, id: string, fields: NewGroup) {
  return db
    .insertInto(table)
    .values({ id, name: fields.name, ...ownColumns(table, fields) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the fields given; a name taken throws the unique violation. */
export function updateGroup(db: CatalogDb, table: GroupTable, id: string, fields: GroupFields) {
  return db
    .updateTable(table)
    .set({ name: fields.name, ...ownColumns(table, fields), updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Throws a foreign key violation while services belong to it. */
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
