import type { Ownership } from '@platform/core';
import { selectByIdOrName, sql, type Insertable, type Updateable } from '@platform/db';
import type { BillingDb, CategoriesTable, CategoryRow, Page } from '../database.js';

export type CategoryChanges = Pick<
  Updateable<CategoriesTable>,
  'name' | 'description' | 'color' | 'team'
>;

/** A page of categories by name, case-insensitively. */
export function listCategories(db: BillingDb, page: Page): Promise<CategoryRow[]> {
  return db
    .selectFrom('categories')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * Who owns the category with this id, else this name in any case (as the routes find it): what
 * the `owner` rule asks before validation. Undefined when there is none (the handler answers 404).
 */
export async function findCategoryOwnership(
  db: BillingDb,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (typeof idOrName !== 'string' || idOrName === '') return undefined;
  const row = await selectByIdOrName(db, 'categories', idOrName);
  return row && { createdBy: row.created_by, team: row.team };
}

/** Inserts a category; a unique violation when its name is taken in any case. */
export function insertCategory(db: BillingDb, category: Insertable<CategoriesTable>) {
  return db.insertInto('categories').values(category).returningAll().executeTakeFirstOrThrow();
}

/**
 * Changes the fields given, in one transaction with the items: a rename carries the items of
 * the category (which name it) along.
 */
export function updateCategory(db: BillingDb, current: CategoryRow, changes: CategoryChanges) {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('categories')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (changes.name !== undefined && changes.name !== current.name)
      await trx
        .updateTable('items')
        .set({ category: changes.name })
        .where('category', '=', current.name)
        .execute();
    return updated;
  });
}

/** Deletes a category; its items keep the name. */
export async function deleteCategory(db: BillingDb, id: string): Promise<void> {
  await db.deleteFrom('categories').where('id', '=', id).execute();
}
