import { jsonb, sql } from '@platform/db';
import { announceRevocation } from './credentials.js';
import type { PassportDb, SessionRow } from '../database.js';

export interface NewSession {
  id: string;
  token_hash: string;
  email: string;
  name: string;
  subject: string;
  expires_at: Date;
  groups: string[];
}

export function insertSession(db: PassportDb, session: NewSession): Promise<SessionRow> {
  const { groups, ...rest } = session;
  return db
    .insertInto('sessions')
    .values({ ...rest, groups: jsonb(groups) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The session of a token's hash, if it is neither revoked nor expired (one indexed read). */
export function findLiveSession(db: PassportDb, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'token_hash', 'email', 'name', 'last_seen_at', 'expires_at', 'groups'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/** Notes that a session was used: at most once a minute per session. */
export async function touchSession(db: PassportDb, id: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: sql`now()` })
    .where('id', '=', id)
    .where('last_seen_at', '<', sql<Date>`now() - interval '1 minute'`)
    .execute();
}

export function findSession(db: PassportDb, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSessions(
  db: PassportDb,
  filter: { email?: string; active?: boolean },
  page: { limit: number; offset: number },
): Promise<SessionRow[]> {
  let query = db.selectFrom('sessions').selectAll();
  if (filter.email !== undefined)
    query = query.where(sql<string>`lower(email)`, '=', filter.email.toLowerCase());
  if (filter.active === true)
    query = query.where('revoked_at', 'is', null).where('expires_at', '>', sql<Date>`now()`);
  if (filter.active === false)
    query = query.where((eb) =>
      eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]),
    );
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Ends a session now; undefined when it does not exist. An ended session stays as it was. */
export async function revokeSession(db: PassportDb, id: string): Promise<SessionRow | undefined> {
  const row = await db
    .updateTable('sessions')
    .set({ revoked_at: sql`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (row) await announceRevocation(db);
  return row;
}
