import { sql } from '@platform/db';
import type { InferenceDb } from '../database.js';

/** The entry's value while it has not expired (by the database's clock). */
export async function readEntry(db: InferenceDb, key: string) {
  const row = await db
    .selectFrom('cache_entries')
    .select('value')
    .where('key', '=', key)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.value;
}

export async function writeEntry(db: InferenceDb, key: string, value: unknown, ttlS: number) {
  const expires = sql<Date>`now() + make_interval(secs => ${ttlS})`;
  const json = JSON.stringify(value);
  await db
    .insertInto('cache_entries')
    .values({ key, value: sql`${json}::jsonb`, expires_at: expires })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: sql`excluded.value`,
        expires_at: sql`excluded.expires_at`,
        created_at: sql`now()`,
      }),
    )
    .execute();
}

export async function sweepEntries(db: InferenceDb): Promise<number> {
  const result = await db
    .deleteFrom('cache_entries')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
