import type { Insertable } from '@platform/db';
import type { StageDb } from '../database/index.js';
import type { BackendLogsTable } from '../database/backends.js';
import type { LogLevel } from '../domain/backends/protocol.js';

export type NewLogLine = Insertable<BackendLogsTable>;

export interface LogFilter {
  levels?: LogLevel[];
  /** Lines logged at or after this time. */
  since?: Date;
  requestId?: string;
}

/** Stores lines, then drops the app's oldest beyond `keep` (the newest `keep` stay). */
export async function insertLogs(db: StageDb, sid: string, lines: NewLogLine[], keep: number) {
  await db.insertInto('backend_logs').values(lines).execute();
  await db
    .deleteFrom('backend_logs')
    .where('app_sid', '=', sid)
    .where('id', '<=', (eb) =>
      eb
        .selectFrom('backend_logs')
        .select('id')
        .where('app_sid', '=', sid)
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1),
    )
    .execute();
}

function filtered(db: StageDb, sid: string, filter: LogFilter) {
  let query = db.selectFrom('backend_logs').selectAll().where('app_sid', '=', sid);
  if (filter.levels?.length) query = query.where('level', 'in', filter.levels);
  if (filter.since) query = query.where('logged_at', '>=', filter.since);
  if (filter.requestId !== undefined) query = query.where('request_id', '=', filter.requestId);
  return query;
}

/** Newest first; `before` (a line's id, the cursor) keeps the older ones. */
export function listLogs(
  db: StageDb,
  sid: string,
  filter: LogFilter & { before?: number },
  limit: number,
) {
  let query = filtered(db, sid, filter);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** Oldest first, those after the line `after` (a live stream's next lines). */
export function logsAfter(
  db: StageDb,
  sid: string,
  filter: LogFilter,
  after: number,
  limit: number,
) {
  return filtered(db, sid, filter)
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

/** The id of the app's newest line (0 when none): where a live stream starts. */
export async function lastLogId(db: StageDb, sid: string): Promise<number> {
  const row = await db
    .selectFrom('backend_logs')
    .select('id')
    .where('app_sid', '=', sid)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : 0;
}
