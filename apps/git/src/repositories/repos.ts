import { findByIdOrName, type Ownership } from '@platform/core';
import { jsonb, selectByIdOrName, sql } from '@platform/db';
import type { GitDb, RepositoriesTable, RepositoryRow } from '../database.js';

export type NewRepository = Omit<
  RepositoriesTable,
  'created_at' | 'updated_at' | `catalog_${'path' | 'error' | 'checked_at' | 'entities'}`
>;

export function listRepositories(
  db: GitDb,
  filter: { providerId?: string },
  page: { limit: number; offset: number },
): Promise<RepositoryRow[]> {
  let query = db.selectFrom('repositories').selectAll();
  if (filter.providerId !== undefined) query = query.where('provider_id', '=', filter.providerId);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findRepository = (db: GitDb, idOrName: string) =>
  findByIdOrName(db, 'repositories', idOrName, 'Repository');

/**
 * Who owns a repository connection (its creator and team), resolved as `findRepository` resolves
 * it; undefined when there is none (or the reference is not a string): the handler answers 404.
 */
export async function findRepositoryOwnership(
  db: GitDb,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (typeof idOrName !== 'string' || idOrName.length === 0) return undefined;
  const row = await selectByIdOrName(db, 'repositories', idOrName);
  return row && { createdBy: row.created_by, team: row.team };
}

/** The repository a webhook delivery names (`owner/name`, any case), if it is connected. */
export const repositoryNamed = (db: GitDb, fullName: string) =>
  db
    .selectFrom('repositories')
    .select(['id', 'name'])
    .where(sql<boolean>`lower(name) = ${fullName.toLowerCase()}`)
    .executeTakeFirst();

export const insertRepository = (db: GitDb, row: NewRepository) =>
  db.insertInto('repositories').values(row).returningAll().executeTakeFirstOrThrow();

export const updateMetadata = (
  db: GitDb,
  id: string,
  meta: Pick<RepositoriesTable, 'html_url' | 'default_branch' | 'private' | 'status'>,
) =>
  db
    .updateTable('repositories')
    .set({ ...meta, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export const deleteRepository = (db: GitDb, id: string) =>
  db.deleteFrom('repositories').where('id', '=', id).returningAll().executeTakeFirst();

/** Catalog discovery's outcome: the error (null: none) and, when applied, what the file made. */
export const updateCatalogState = (db: GitDb, id: string, error: string | null, made?: unknown[]) =>
  db
    .updateTable('repositories')
    .set({
      catalog_error: error,
      catalog_checked_at: sql`now()`,
      ...(made === undefined ? {} : { catalog_entities: jsonb(made) }),
    })
    .where('id', '=', id)
    .execute();

export const updateCatalogPath = (db: GitDb, id: string, path: string | null) =>
  db
    .updateTable('repositories')
    .set({ catalog_path: path, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
