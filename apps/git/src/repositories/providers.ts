import { findByIdOrName } from '@platform/core';
import { sql } from '@platform/db';
import type { GitDb, ProviderRow, ProvidersTable } from '../database.js';

export const listProviders = (db: GitDb, page: { limit: number; offset: number }) =>
  db
    .selectFrom('providers')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const findProvider = (db: GitDb, idOrName: string) =>
  findByIdOrName(db, 'providers', idOrName, 'Provider');

export const insertProvider = (
  db: GitDb,
  row: Omit<ProvidersTable, 'created_at' | 'updated_at'>,
): Promise<ProviderRow> =>
  db.insertInto('providers').values(row).returningAll().executeTakeFirstOrThrow();

/** The number of repositories still connected through a provider. */
export async function countRepositories(db: GitDb, providerId: string): Promise<number> {
  const { count } = await db
    .selectFrom('repositories')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('provider_id', '=', providerId)
    .executeTakeFirstOrThrow();
  return count;
}

export const deleteProvider = (db: GitDb, id: string) =>
  db.deleteFrom('providers').where('id', '=', id).returningAll().executeTakeFirst();

/** The ids of the local providers (their repositories' clone URLs are the platform's own). */
export const localProviderIds = async (db: GitDb): Promise<Set<string>> =>
  new Set(
    (await db.selectFrom('providers').select('id').where('type', '=', 'local').execute()).map(
      (row) => row.id,
    ),
  );
