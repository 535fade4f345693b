import { newId, notFound, type Ownership } from '@platform/core';
import { jsonb, ownedBy, sql, type Visible } from '@platform/db';
import type { SessionRow, StageDb } from '../database/index.js';

/** Who made a new session and its team; `appSid` for a studio session. */
export interface NewSession {
  appSid?: string | null;
  createdBy: string | null;
  team: string | null;
}

export function insertSession(db: StageDb, session: NewSession): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({
      id: newId(),
      app_sid: session.appSid ?? null,
      created_by: session.createdBy,
      team: session.team,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What the access policy reads of a session; undefined when there is none (or the id is bad). */
export async function findSessionOwnership(
  db: StageDb,
  id: unknown,
): Promise<Ownership | undefined> {
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) return undefined;
  const row = await db
    .selectFrom('sessions')
    .select(['created_by', 'team', 'collaborators'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toOwnership(row);
}

export const toOwnership = (row: {
  created_by: string | null;
  team: string | null;
  collaborators: string[];
}): Ownership => ({ createdBy: row.created_by, team: row.team, collaborators: row.collaborators });

/** The ownership of several sessions at once (an apps list), by id. */
export async function sessionOwnerships(db: StageDb, ids: string[]) {
  if (ids.length === 0) return new Map<string, Ownership>();
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_by', 'team', 'collaborators'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, toOwnership(row)]));
}

/** Replaces a session's collaborators (emails, lower case). */
export function setCollaborators(db: StageDb, id: string, emails: string[]) {
  return db
    .updateTable('sessions')
    .set({ collaborators: jsonb(emails), last_accessed_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The sessions a caller sees in a list: made by one of `creators`, of one of `teams`, or naming
 * one of `creators` among their collaborators.
 */
const visibleSessions = (visible: Visible) =>
  sql<boolean>`(${ownedBy(visible, 's')} or exists (select 1 from jsonb_array_elements_text(s.collaborators) as c(email) where c.email in (${sql.join(visible.creators.length > 0 ? visible.creators.map((c) => c.toLowerCase()) : [''])})))`;

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
  visible?: Visible,
) {
  let query = db
    .selectFrom('sessions as s')
    .select([
      's.id',
      's.app_sid',
      's.created_at',
      's.last_accessed_at',
      's.created_by',
      's.team',
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
  if (visible) query = query.where(visibleSessions(visible));
  return query
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A new session bound to an app, holding the current files of `fromSession` (each at version 1). */
export function insertStudioSession(db: StageDb, session: NewSession, fromSession: string) {
  return db.transaction().execute(async (trx) => {
    // The source's row locked: no push lands between the two copies below.
    await useSession(trx, fromSession);
    const created = await insertSession(trx, session);
    const copied = trx
      .selectFrom('files')
      .where('session_id', '=', fromSession)
      .where('hash', 'is not', null)
      .select([
        sql.lit(created.id).as('session_id'),
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
    return created;
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
