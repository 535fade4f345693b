import { findByIdOrName } from '@platform/core';
import { sql } from '@platform/db';
import type { {{Name}}Db, ItemRow } from '../database.js';

export interface NewItem {
  id: string;
  name: string;
  description: string | null;
}

export interface ItemChanges {
  name?: string;
  description?: string | null;
}

/** By name in any case, then id; `name` keeps the items whose name contains it, in any case. */
export function listItems(
  db: {{Name}}Db,
  filter: { name?: string },
  page: { limit: number; offset: number },
): Promise<ItemRow[]> {
  let query = db.selectFrom('items').selectAll();
  if (filter.name !== undefined)
    query = query.where(sql<boolean>`strpos(lower(name), ${filter.name.toLowerCase()}) > 0`);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The item with exactly that id, else the one with that name in any case; NOT_FOUND otherwise. */
export const findItem = (db: {{Name}}Db, idOrName: string) =>
  findByIdOrName(db, 'items', idOrName, 'Item');

/** How many items there are. */
export async function countItems(db: {{Name}}Db): Promise<number> {
  const { count } = await db
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function insertItem(db: {{Name}}Db, item: NewItem): Promise<ItemRow> {
  return db.insertInto('items').values(item).returningAll().executeTakeFirstOrThrow();
}

/** Changes the fields given; undefined when the item is gone. */
export function updateItem(
  db: {{Name}}Db,
  id: string,
  changes: ItemChanges,
): Promise<ItemRow | undefined> {
  return db
    .updateTable('items')
    .set({ name: changes.name, description: changes.description, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the item and returns it as it was; undefined when it is gone already. */
export function deleteItem(db: {{Name}}Db, id: string): Promise<ItemRow | undefined> {
  return db.deleteFrom('items').where('id', '=', id).returningAll().executeTakeFirst();
}
