import { notFound } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { AppRepository, AppRow, StageDb } from '../database.js';

export interface AppChanges {
  name?: string;
  title?: string | null;
  description?: string | null;
  config?: Record<string, unknown>;
  repository?: AppRepository | null;
}

export function insertApp(db: StageDb, app: { sid: string; name: string; session_id: string }) {
  return db.insertInto('apps').values(app).returningAll().executeTakeFirstOrThrow();
}

/** By sid (exact), else by name in any case; NOT_FOUND otherwise. */
export async function findApp(db: StageDb, sidOrName: string): Promise<AppRow> {
  const row = await db
    .selectFrom('apps')
    .selectAll()
    .where((eb) =>
      eb.or([eb('sid', '=', sidOrName), eb(sql`lower(name)`, '=', sidOrName.toLowerCase())]),
    )
    // The exact sid wins over a name (spec 2.1).
    .orderBy(sql`sid = ${sidOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw notFound('App', sidOrName);
  return row;
}

/** By sid only (the /app/<sid>/ pages); undefined when there is none. */
export function findAppBySid(db: StageDb, sid: string): Promise<AppRow | undefined> {
  return db.selectFrom('apps').selectAll().where('sid', '=', sid).executeTakeFirst();
}

/** The app a session serves, or the one a studio session is bound to. */
export function appOfSession(db: StageDb, sessionId: string) {
  return db
    .selectFrom('apps')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('session_id', '=', sessionId),
        eb('sid', '=', eb.selectFrom('sessions').select('app_sid').where('id', '=', sessionId)),
      ]),
    )
    .orderBy(sql`session_id = ${sessionId}`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function listApps(
  db: StageDb,
  filter: { sessionId?: string; name?: string },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('apps').selectAll();
  if (filter.sessionId !== undefined) {
    const sessionId = filter.sessionId;
    query = query.where((eb) =>
      eb.or([
        eb('session_id', '=', sessionId),
        eb('sid', '=', eb.selectFrom('sessions').select('app_sid').where('id', '=', sessionId)),
      ]),
    );
  }
  if (filter.name !== undefined)
    query = query.where(sql<boolean>`strpos(lower(name), ${filter.name.toLowerCase()}) > 0`);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('sid')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function updateApp(db: StageDb, sid: string, changes: AppChanges) {
  const { config, repository, ...plain } = changes;
  return db
    .updateTable('apps')
    .set({
      ...plain,
      ...(config === undefined ? {} : { config: jsonb(config) }),
      ...(repository === undefined ? {} : { repository: repository && jsonb(repository) }),
      updated_at: sql`now()`,
    })
    .where('sid', '=', sid)
    .returningAll()
    .executeTakeFirst();
}

/** The app serves `sessionId` from now on. */
export function publishSession(db: StageDb, sid: string, sessionId: string) {
  return db
    .updateTable('apps')
    .set({ session_id: sessionId, published_at: sql`now()`, updated_at: sql`now()` })
    .where('sid', '=', sid)
    .returningAll()
    .executeTakeFirst();
}

export function deleteApp(db: StageDb, sid: string) {
  return db.deleteFrom('apps').where('sid', '=', sid).returningAll().executeTakeFirst();
}
