import { sql } from '@platform/db';
import type { InferenceDb } from '../database.js';

/**
 * The priced calls of the last `days` UTC days (today included), summed per day, app, key and
 * model: what billing is told. Cache hits and unpriced models cost nothing and are left out.
 */
export function spendByDay(db: InferenceDb, days: number) {
  const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .selectFrom('requests')
    .select([
      day.as('day'),
      'app',
      'key_id',
      'model',
      sql<string>`count(*)`.as('requests'),
      sql<string>`coalesce(sum(input_tokens), 0)`.as('input'),
      sql<string>`coalesce(sum(output_tokens), 0)`.as('output'),
      sql<string>`sum(cost_micros)`.as('cost'),
    ])
    .where(
      'created_at',
      '>=',
      sql<Date>`(date_trunc('day', now() at time zone 'UTC') - make_interval(days => ${days - 1})) at time zone 'UTC'`,
    )
    .where('cost_micros', '>', '0')
    .where('model', 'is not', null)
    .groupBy([day, 'app', 'key_id', 'model'])
    .orderBy(day)
    .execute();
}
