import { sql, type Insertable } from '@platform/db';
import type { InferenceDb, KeyLimitsRow, KeyLimitsTable } from '../database.js';

export type Window = 'minute' | 'day' | 'month';

/** The start of the current window, by the database's clock, in UTC. */
const startOf = (window: Window) =>
  sql<Date>`date_trunc(${window}, now() at time zone 'UTC') at time zone 'UTC'`;

export function findLimits(db: InferenceDb, keyId: string): Promise<KeyLimitsRow | undefined> {
  return db.selectFrom('key_limits').selectAll().where('key_id', '=', keyId).executeTakeFirst();
}

export function upsertLimits(
  db: InferenceDb,
  row: Insertable<KeyLimitsTable>,
): Promise<KeyLimitsRow> {
  const { key_id: _key, ...changes } = row;
  return db
    .insertInto('key_limits')
    .values(row)
    .onConflict((oc) => oc.column('key_id').doUpdateSet({ ...changes, updated_at: sql`now()` }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Counts one request in the key's current minute, atomically: with `rpm`, only while fewer than
 * `rpm` were counted (undefined when the minute is full). Answers the minute's counts.
 */
export async function countRequest(db: InferenceDb, keyId: string, rpm: number | null) {
  return db
    .insertInto('key_counters')
    .values({ key_id: keyId, window: 'minute', starts_at: startOf('minute'), requests: 1 })
    .onConflict((oc) => {
      const update = oc
        .columns(['key_id', 'window', 'starts_at'])
        .doUpdateSet({ requests: sql`key_counters.requests + 1` });
      return rpm === null ? update : update.where('key_counters.requests', '<', rpm);
    })
    .returning(['requests', 'tokens'])
    .executeTakeFirst();
}

/** What the key spent in its current day or month (0 when nothing yet). */
export async function spentIn(db: InferenceDb, keyId: string, window: Window): Promise<number> {
  const row = await db
    .selectFrom('key_counters')
    .select('cost_micros')
    .where('key_id', '=', keyId)
    .where('window', '=', window)
    .where('starts_at', '=', startOf(window))
    .executeTakeFirst();
  return Number(row?.cost_micros ?? 0);
}

/** Adds a finished call's tokens (minute, day, month) and cost (day, month), in one statement. */
export async function addUsage(db: InferenceDb, keyId: string, tokens: number, cost: number) {
  const row = (window: Window, requests: number, micros: number) => ({
    key_id: keyId,
    window,
    starts_at: startOf(window),
    requests,
    tokens: String(tokens),
    cost_micros: String(micros),
  });
  await db
    .insertInto('key_counters')
    .values([row('minute', 0, 0), row('day', 1, cost), row('month', 1, cost)])
    .onConflict((oc) =>
      oc.columns(['key_id', 'window', 'starts_at']).doUpdateSet({
        requests: sql`key_counters.requests + excluded.requests`,
        tokens: sql`key_counters.tokens + excluded.tokens`,
        cost_micros: sql`key_counters.cost_micros + excluded.cost_micros`,
      }),
    )
    .execute();
}

/** The key's current minute, day and month, with the database's clock. */
export async function currentUsage(db: InferenceDb, keyId: string) {
  const rows = await db
    .selectFrom('key_counters')
    .select(['window', 'starts_at', 'requests', 'tokens', 'cost_micros'])
    .where('key_id', '=', keyId)
    .where((eb) =>
      eb.or(
        (['minute', 'day', 'month'] as const).map((w) =>
          eb.and([eb('window', '=', w), eb('starts_at', '=', startOf(w))]),
        ),
      ),
    )
    .execute();
  const { now } = await sql<{ now: Date }>`select now() as now`.execute(db).then((r) => r.rows[0]);
  return { rows, now: new Date(now) };
}

/** Minute counters over an hour old go (day and month ones stay: they are the key's history). */
export async function sweepCounters(db: InferenceDb): Promise<number> {
  const result = await db
    .deleteFrom('key_counters')
    .where('window', '=', 'minute')
    .where('starts_at', '<', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
