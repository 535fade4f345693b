import { selectByIdOrName, sql } from '@platform/db';
import type { CatalogDb, OwnerRow } from '../database.js';
import { servicesLinkedTo } from './services.js';

export interface OwnerFields {
  name: string;
  email?: string | null;
  team?: string | null;
}

export function listOwners(db: CatalogDb, page: { limit: number; offset: number }) {
  return db
    .selectFrom('owners')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The owner with that id, else that name in any case; undefined when there is none. */
export const findOwner = (db: CatalogDb, idOrName: string) =>
  selectByIdOrName<OwnerRow>(db, 'owners', idOrName);

/** The stored owner, or undefined when its name is taken (in any case). */
export function insertOwner(db: CatalogDb, id: string, fields: OwnerFields) {
  return db
    .insertInto('owners')
    .values({ id, name: fields.name, email: fields.email ?? null, team: fields.team ?? null })
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Changes the fields given (null clears one); a name taken throws the unique violation. */
export function updateOwner(db: CatalogDb, id: string, fields: Partial<OwnerFields>) {
  return db
    .updateTable('owners')
    .set({ name: fields.name, email: fields.email, team: fields.team, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Throws a foreign key violation while services belong to it. */
export async function deleteOwner(db: CatalogDb, id: string): Promise<void> {
  await db.deleteFrom('owners').where('id', '=', id).execute();
}

export const servicesOfOwner = (db: CatalogDb, id: string) => servicesLinkedTo(db, 'owner_id', id);
