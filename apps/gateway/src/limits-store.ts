import { sql, type PlatformDatabase } from '@platform/db';

// A store for @fastify/rate-limit over the database (issue 38, item 5): the counters live in the
// gateway schema's `rate_limits` table, so every gateway on one database enforces one limit.

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** A request's counters: `a:<address>`, and `k:<hash>` when it carries an API key. */
export const bucketsOf = (key: string) => key.split('|');

/**
 * Counts one request in each of its buckets, in one statement: a bucket whose window is over
 * starts again at 1. Answers the fullest bucket (what decides the limit) and its time left.
 */
async function increment(db: PlatformDatabase, key: string, windowMs: number) {
  const buckets = bucketsOf(key);
  const window = sql`make_interval(secs => ${windowMs / 1000})`;
  const values = sql.join(buckets.map((b) => sql`(${b}, 1, now() + ${window})`));
  const { rows } = await sql<{ count: number; ttl: number }>`
    insert into gateway.rate_limits as r (key, count, reset_at) values ${values}
    on conflict (key) do update set
      count = case when r.reset_at <= now() then 1 else r.count + 1 end,
      reset_at = case when r.reset_at <= now() then now() + ${window} else r.reset_at end
    returning r.count, (extract(epoch from r.reset_at - now()) * 1000)::float8 as ttl`.execute(
    db.kysely,
  );
  const fullest = rows.reduce((a, b) => (Number(b.count) > Number(a.count) ? b : a));
  return { current: Number(fullest.count), ttl: Math.max(0, Math.ceil(Number(fullest.ttl))) };
}

/** Forgets windows over for an hour or more (called now and then by one gateway or another). */
export async function pruneLimits(db: PlatformDatabase) {
  await sql`delete from gateway.rate_limits where reset_at < now() - interval '1 hour'`.execute(
    db.kysely,
  );
}

/**
 * The store class the plugin instantiates (`store` option), bound to `db`. A database that does
 * not answer lets the request through (logged by the caller): limits protect the platform, an
 * outage of theirs must not take it down.
 */
export function databaseStore(db: PlatformDatabase, onError: (error: unknown) => void) {
  return class DatabaseStore {
    constructor(readonly options: { timeWindow?: number } = {}) {}

    incr(key: string, callback: Callback, timeWindow?: number) {
      const windowMs = Number(timeWindow ?? this.options.timeWindow ?? 60_000);
      increment(db, key, windowMs).then(
        (result) => callback(null, result),
        (error: unknown) => {
          onError(error);
          callback(null, { current: 0, ttl: windowMs });
        },
      );
    }

    child(routeOptions: object) {
      return new DatabaseStore({ ...this.options, ...(routeOptions as { timeWindow?: number }) });
    }
  };
}
