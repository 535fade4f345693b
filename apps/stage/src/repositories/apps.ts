import { notFound, type Ownership } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { AppRepository, AppRow, AppVisibility, StageDb } from '../database/index.js';
import { toOwnership } from './sessions.js';

export interface AppChanges {
  name?: string;
  title?: string | null;
  description?: string | null;
  config?: Record<string, unknown>;
  repository?: AppRepository | null;
  team?: string | null;
  visibility?: AppVisibility;
  connectOrigins?: string[];
  scopes?: string[];
  /** Whoever publishes or changes it, and their role (its backend acts for them, never with more). */
  publisher?: { email: string | null; role: 'viewer' | 'member' };
}

export function insertApp(
  db: StageDb,
  app: { sid: string; name: string; session_id: string; created_by: string | null; team: string | null }, // prettier-ignore
) {
  return db.insertInto('apps').values(app).returningAll().executeTakeFirstOrThrow();
}

/** The app a sid (exact) or else a name (any case) names, as a query. */
const named = (db: StageDb, sidOrName: string) =>
  db
    .selectFrom('apps')
    .where((eb) =>
      eb.or([eb('sid', '=', sidOrName), eb(sql`lower(name)`, '=', sidOrName.toLowerCase())]),
    )
    // The exact sid wins over a name (spec 2.1).
    .orderBy(sql`sid = ${sidOrName}`, 'desc')
    .limit(1);

/** By sid (exact), else by name in any case; NOT_FOUND otherwise. */
export async function findApp(db: StageDb, sidOrName: string): Promise<AppRow> {
  const row = await named(db, sidOrName).selectAll().executeTakeFirst();
  if (!row) throw notFound('App', sidOrName);
  return row;
}

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 100;

/** Who owns the app a sid or name names (as findApp finds it); undefined when there is none. */
export async function findAppOwnership(
  db: StageDb,
  sidOrName: unknown,
): Promise<Ownership | undefined> {
  if (!isName(sidOrName)) return undefined;
  const row = await named(db, sidOrName).select(['created_by', 'team']).executeTakeFirst();
  return row && { createdBy: row.created_by, team: row.team };
}

/** Who owns the session the app a sid or name names serves (what a studio session copies). */
export async function findAppSessionOwnership(
  db: StageDb,
  sidOrName: unknown,
): Promise<Ownership | undefined> {
  if (!isName(sidOrName)) return undefined;
  const row = await named(db, sidOrName)
    .innerJoin('sessions as s', 's.id', 'apps.session_id')
    .select(['s.created_by', 's.team', 's.collaborators'])
    .executeTakeFirst();
  return row && toOwnership(row);
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
  const { config, repository, connectOrigins, scopes, publisher, ...plain } = changes;
  return db
    .updateTable('apps')
    .set({
      ...plain,
      ...(connectOrigins === undefined ? {} : { connect_origins: jsonb(connectOrigins) }),
      ...(scopes === undefined ? {} : { scopes: jsonb(scopes) }),
      ...(publisher ? { published_by: publisher.email, publisher_role: publisher.role } : {}),
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
