import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';

// App secrets (routes/secrets.ts): `value` is ciphertext (domain/backends/secrets.ts seals it); the
// names and times are all that is ever answered.

const FIELDS = ['name', 'created_at', 'updated_at'] as const;

/** Stores (or replaces) one secret; answers its name and times. */
export function putSecret(db: StageDb, sid: string, name: string, ciphertext: string) {
  return db
    .insertInto('app_secrets')
    .values({ app_sid: sid, name, value: ciphertext })
    .onConflict((oc) =>
      oc.columns(['app_sid', 'name']).doUpdateSet({ value: ciphertext, updated_at: sql`now()` }),
    )
    .returning(FIELDS)
    .executeTakeFirstOrThrow();
}

export function listSecrets(db: StageDb, sid: string) {
  return db
    .selectFrom('app_secrets')
    .select(FIELDS)
    .where('app_sid', '=', sid)
    .orderBy('name')
    .execute();
}

/** The names of an app's secrets besides `except` (the one being set): what the limit counts. */
export async function countSecrets(db: StageDb, sid: string, except: string) {
  const row = await db
    .selectFrom('app_secrets')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('app_sid', '=', sid)
    .where('name', '<>', except)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function deleteSecret(db: StageDb, sid: string, name: string) {
  return db
    .deleteFrom('app_secrets')
    .where('app_sid', '=', sid)
    .where('name', '=', name)
    .returning(FIELDS)
    .executeTakeFirst();
}

/** The ciphertexts of an app's secrets, for its backend's env. */
export function sealedSecrets(db: StageDb, sid: string) {
  return db
    .selectFrom('app_secrets')
    .select(['name', 'value'])
    .where('app_sid', '=', sid)
    .orderBy('name')
    .execute();
}
