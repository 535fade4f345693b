import { sql } from '@platform/db';
import type { InferenceDb } from '../database.js';

/** The providers cooling down now (by the database's clock), with when each ends. */
export async function coolingProviders(db: InferenceDb): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('provider_cooldowns')
    .select(['provider_id', 'until'])
    .where('until', '>', sql<Date>`now()`)
    .execute();
  return new Map(rows.map((r) => [r.provider_id, new Date(r.until)]));
}

/** Cools a provider down for `ms` from now (a longer cool-down under way is kept). */
export async function coolDown(db: InferenceDb, providerId: string, ms: number, reason: string) {
  const until = sql<Date>`now() + make_interval(secs => ${ms / 1000})`;
  await db
    .insertInto('provider_cooldowns')
    .values({ provider_id: providerId, until, reason })
    .onConflict((oc) =>
      oc.column('provider_id').doUpdateSet({
        until: sql`greatest(provider_cooldowns.until, excluded.until)`,
        reason,
      }),
    )
    .execute();
}

export async function sweepCooldowns(db: InferenceDb): Promise<number> {
  const result = await db
    .deleteFrom('provider_cooldowns')
    .where('until', '<', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
