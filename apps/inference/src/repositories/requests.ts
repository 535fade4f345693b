import { sql } from '@platform/db';
import type { InferenceDb, RequestRow, RequestsTable } from '../database.js';
import type { Insertable } from '@platform/db';

export type NewRequest = Insertable<RequestsTable>;

/** Many log rows in one statement. */
export async function insertRequests(db: InferenceDb, rows: NewRequest[]): Promise<void> {
  if (rows.length) await db.insertInto('requests').values(rows).execute();
}

export function findRequest(db: InferenceDb, id: string): Promise<RequestRow | undefined> {
  return db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Who made a logged call: what the `owner` rule of GET /requests/:id asks; undefined if none. */
export async function findRequestOwnership(db: InferenceDb, id: string) {
  const row = await db
    .selectFrom('requests')
    .select('created_by')
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { createdBy: row.created_by, team: null };
}

export interface UsageFilter {
  /** Provider id or name (any case). */
  provider?: string;
  since?: Date;
  until?: Date;
  /** The platform API key that made the calls (its id, exact). */
  key?: string;
  /** The sandbox app the calls are charged to (exact). */
  app?: string;
  /** Who made the calls, as `createdBy` says (any case). */
  caller?: string;
  /** The model as callers named it (any case). */
  model?: string;
  /** Only the calls these callers made (any case); every call when undefined (admins). */
  creators?: readonly string[];
}

function filtered(db: InferenceDb, filter: UsageFilter) {
  let query = db.selectFrom('requests');
  if (filter.provider !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('provider_id', '=', filter.provider!),
        eb(sql<string>`lower(provider)`, '=', filter.provider!.toLowerCase()),
      ]),
    );
  if (filter.key !== undefined) query = query.where('key_id', '=', filter.key);
  if (filter.app !== undefined) query = query.where('app', '=', filter.app);
  if (filter.caller !== undefined)
    query = query.where(sql<string>`lower(created_by)`, '=', filter.caller.toLowerCase());
  if (filter.model !== undefined)
    query = query.where(sql<string>`lower(model)`, '=', filter.model.toLowerCase());
  if (filter.since) query = query.where('created_at', '>=', filter.since);
  if (filter.until) query = query.where('created_at', '<=', filter.until);
  if (filter.creators !== undefined) {
    const creators = filter.creators.map((c) => c.toLowerCase());
    query = creators.length
      ? query.where(sql<string>`lower(created_by)`, 'in', creators)
      : query.where(sql<boolean>`false`);
  }
  return query;
}

/** Newest first. */
export function listRequests(db: InferenceDb, filter: UsageFilter, limit: number) {
  return filtered(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Totals over every request the filter keeps (not only the page listed). */
export function summarize(db: InferenceDb, filter: UsageFilter) {
  return filtered(db, filter)
    .select([
      sql<string>`count(*)`.as('requests'),
      sql<string>`count(*) filter (where status = 'error')`.as('errors'),
      sql<string>`count(*) filter (where status = 'aborted')`.as('aborted'),
      sql<string>`coalesce(sum(input_tokens), 0)`.as('input'),
      sql<string>`coalesce(sum(output_tokens), 0)`.as('output'),
      sql<string>`coalesce(round(avg(duration_ms)), 0)`.as('avg_duration'),
      sql<string>`coalesce(sum(cost_micros), 0)`.as('cost'),
    ])
    .executeTakeFirstOrThrow();
}
