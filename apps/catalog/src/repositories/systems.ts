import { selectByIdOrName, sql } from '@platform/db';
import type { CatalogDb, SystemRow } from '../database.js';
import { servicesLinkedTo } from './services.js';

export interface SystemFields {
  name: string;
  description?: string | null;
}

export function listSystems(db: CatalogDb, page: { limit: number; offset: number }) {
  return db
    .selectFrom('systems')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The system with that id, else that name in any case; undefined when there is none. */
export const findSystem = (db: CatalogDb, idOrName: string) =>
  selectByIdOrName<SystemRow>(db, 'systems', idOrName);

/** The stored system, or undefined when its name is taken (in any case). */
export function insertSystem(db: CatalogDb, id: string, fields: SystemFields) {
  return db
    .insertInto('systems')
    .values({ id, name: fields.name, description: fields.description ?? null })
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Changes the fields given (null clears one); a name taken throws the unique violation. */
export function updateSystem(db: CatalogDb, id: string, fields: Partial<SystemFields>) {
  return db
    .updateTable('systems')
    .set({ name: fields.name, description: fields.description, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Throws a foreign key violation while services belong to it. */
export async function deleteSystem(db: CatalogDb, id: string): Promise<void> {
  await db.deleteFrom('systems').where('id', '=', id).execute();
}

export const servicesOfSystem = (db: CatalogDb, id: string) =>
  servicesLinkedTo(db, 'system_id', id);
