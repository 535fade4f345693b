import { newId, notFound } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { SessionRow, StageDb } from '../database.js';

export function insertSession(db: StageDb, appSid: string | null = null): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({ id: newId(), app_sid: appSid })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Every use of a session moves its lastAccessedAt (retention counts from it); the update is also
 * the lookup, and inside a transaction it locks the session's row until the end, so that writes to
 * one session (pushes, restores, renders) take turns. NOT_FOUND when there is none.
 */
export async function useSession(db: StageDb, id: string): Promise<SessionRow> {
  const row = await db
    .updateTable('sessions')
    .set({ last_accessed_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Session', id);
  return row;
}

export function setGoogleScopes(db: StageDb, id: string, scopes: string[]) {
  return db
    .updateTable('sessions')
    .set({ google_scopes: jsonb(scopes), last_accessed_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The studio sessions bound to an app (or to any app), newest first. */
export function listStudioSessions(
  db: StageDb,
  appSid: string | undefined,
  page: { limit: number; offset: number },
) {
  let query = db
    .selectFrom('sessions as s')
    .select([
      's.id',
      's.app_sid',
      's.created_at',
      's.last_accessed_at',
      (eb) =>
        eb
          .selectFrom('files as f')
          .whereRef('f.session_id', '=', 's.id')
          .where('f.hash', 'is not', null)
          .select(eb.fn.countAll<number>().as('n'))
          .as('file_count'),
    ]);
  query =
    appSid === undefined
      ? query.where('s.app_sid', 'is not', null)
      : query.where('s.app_sid', '=', appSid);
  return query
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A new session bound to an app, holding the current files of `fromSession` (each at version 1). */
export function insertStudioSession(db: StageDb, appSid: string, fromSession: string) {
  return db.transaction().execute(async (trx) => {
    // The source's row locked: no push lands between the two copies below.
    await useSession(trx, fromSession);
    const session = await insertSession(trx, appSid);
    const copied = trx
      .selectFrom('files')
      .where('session_id', '=', fromSession)
      .where('hash', 'is not', null)
      .select([
        sql.lit(session.id).as('session_id'),
        'path',
        sql.lit(1).as('version'),
        'hash',
        'size',
      ]);
    await trx
      .insertInto('file_versions')
      .columns(['session_id', 'path', 'version', 'hash', 'size'])
      .expression(copied)
      .execute();
    await trx
      .insertInto('files')
      .columns(['session_id', 'path', 'version', 'hash', 'size'])
      .expression(copied)
      .execute();
    return session;
  });
}

/**
 * Deletes the sessions unused since `before` that serve no app, and then the contents nothing
 * refers to any more; returns how many sessions went.
 */
export async function reclaimSessions(db: StageDb, before: Date): Promise<number> {
  const gone = await db
    .deleteFrom('sessions')
    .where('last_accessed_at', '<', before)
    // Neither serving an app nor a studio session of one.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('apps')
            .where((eb) =>
              eb.or([
                eb('apps.session_id', '=', eb.ref('sessions.id')),
                eb('apps.sid', '=', eb.ref('sessions.app_sid')),
              ]),
            )
            .select('sid'),
        ),
      ),
    )
    .returning('id')
    .execute();
  if (gone.length > 0) await deleteUnusedBlobs(db);
  return gone.length;
}

/**
 * Deletes the contents no version refers to. A push taking one up meanwhile makes the sweep fail
 * (the foreign keys hold); it is then left to the next run.
 */
export async function deleteUnusedBlobs(db: StageDb): Promise<void> {
  try {
    await sweepBlobs(db);
  } catch (error) {
    if ((error as { code?: string }).code !== '23503') throw error;
  }
}

function sweepBlobs(db: StageDb) {
  return db
    .deleteFrom('blobs')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('file_versions as v').whereRef('v.hash', '=', 'blobs.hash').select('v.hash'),
        ),
      ),
    )
    .execute();
}
