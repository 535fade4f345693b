import { findByIdOrName, newId, type Static } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { New, PaletteDb, StandardsTable } from '../database.js';
import type { NamedListQuery } from '../schemas/common.js';
import { hasTag } from './records.js';

/** A page of standards by name, filtered; one query. */
export function listStandards(db: PaletteDb, filter: Static<typeof NamedListQuery>) {
  let query = db.selectFrom('standards').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.tag !== undefined) query = query.where(hasTag(filter.tag));
  return query
    .orderBy(sql`lower(name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The standard with that id, else that name in any case; NOT_FOUND `Standard not found: x`. */
export const findStandard = (db: PaletteDb, idOrName: string) =>
  findByIdOrName(db, 'standards', idOrName, 'Standard');

/** Inserts a standard with a new id. */
export const insertStandard = (db: PaletteDb, standard: New<StandardsTable>) =>
  db
    .insertInto('standards')
    .values({
      ...standard,
      id: newId(),
      tags: jsonb(standard.tags),
      guidelines: jsonb(standard.guidelines),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Deletes a standard. */
export async function deleteStandard(db: PaletteDb, id: string) {
  await db.deleteFrom('standards').where('id', '=', id).execute();
}
