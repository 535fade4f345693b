import { findByIdOrName } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { PassportDb, ProviderRow, ProvidersTable } from '../database.js';
import type { Insertable } from '@platform/db';

export type NewProvider = Insertable<ProvidersTable> & { id: string; scopes: string[] };

export function insertProvider(db: PassportDb, provider: NewProvider): Promise<ProviderRow> {
  return db
    .insertInto('providers')
    .values({ ...provider, scopes: jsonb(provider.scopes) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const findProvider = (db: PassportDb, idOrName: string) =>
  findByIdOrName(db, 'providers', idOrName, 'Provider');

export function findProviderById(db: PassportDb, id: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listProviders(
  db: PassportDb,
  page: { limit: number; offset: number },
): Promise<ProviderRow[]> {
  return db
    .selectFrom('providers')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Deletes a provider and its users' connections together; the provider as it was. */
export function deleteProvider(db: PassportDb, id: string): Promise<ProviderRow | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('connections').where('provider', '=', id).execute();
    return trx.deleteFrom('providers').where('id', '=', id).returningAll().executeTakeFirst();
  });
}
