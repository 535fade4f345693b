import { findByIdOrName } from '@platform/core';
import { sql } from '@platform/db';
import type { InferenceDb, ProviderRow } from '../database.js';

export interface NewProvider {
  id: string;
  name: string;
  type: string;
  default_model: string;
  env_var: string | null;
  base_url: string | null;
  weight?: number | null;
}

export type ProviderChanges = Partial<Omit<NewProvider, 'id'>>;

/** Oldest first: routing by model name picks the first provider of a type. */
export function listProviders(
  db: InferenceDb,
  page: { limit: number; offset: number } = { limit: 1000, offset: 0 },
): Promise<ProviderRow[]> {
  return db
    .selectFrom('providers')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findProvider = (db: InferenceDb, idOrName: string) =>
  findByIdOrName(db, 'providers', idOrName, 'Provider');

export function insertProvider(db: InferenceDb, provider: NewProvider): Promise<ProviderRow> {
  return db.insertInto('providers').values(provider).returningAll().executeTakeFirstOrThrow();
}

export function updateProvider(
  db: InferenceDb,
  id: string,
  changes: ProviderChanges,
): Promise<ProviderRow | undefined> {
  return db
    .updateTable('providers')
    .set({ ...changes, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteProvider(db: InferenceDb, id: string): Promise<ProviderRow | undefined> {
  return db.deleteFrom('providers').where('id', '=', id).returningAll().executeTakeFirst();
}

/** The channel on which a provider write is announced to every instance on the database. */
export const PROVIDER_CHANGES = 'inference_providers';

export async function announceProviderChange(db: InferenceDb) {
  await sql`select pg_notify(${PROVIDER_CHANGES}, '')`.execute(db);
}
