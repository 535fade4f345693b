import { sql } from '@platform/db';
import type { StageDb } from '../database/index.js';
import { stored } from './files.js';

/** A published app as its backend needs it, with a version of its session's files. */
export interface BackendApp {
  sid: string;
  name: string;
  session_id: string;
  config: Record<string, unknown>;
  /** Who the backend's platform calls act for (see domain/backends/runner.ts appIdentity). */
  published_by: string | null;
  team: string | null;
  scopes: string[];
  publisher_role: 'viewer' | 'member';
  /**
   * `<session>:<sum of its files' versions>` (deleted ones included): every change of a file
   * raises its version, so any change gives a new value; null when the session has no file.
   */
  files_version: string | null;
}

/** One query per request: the app by sid, and whether its files changed since it was compiled. */
export function appForBackend(db: StageDb, sid: string): Promise<BackendApp | undefined> {
  return db
    .selectFrom('apps as a')
    .select(['a.sid', 'a.name', 'a.session_id', 'a.config', 'a.published_by', 'a.team', 'a.scopes'])
    .select('a.publisher_role')
    .select((eb) =>
      eb
        .selectFrom('files as f')
        .select(sql<string | null>`a.session_id || ':' || sum(f.version)`.as('v'))
        .whereRef('f.session_id', '=', 'a.session_id')
        .as('files_version'),
    )
    .where('a.sid', '=', sid)
    .executeTakeFirst();
}

export async function kvGet(db: StageDb, sid: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('backend_kv')
    .select('value')
    .where('app_sid', '=', sid)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

export async function kvSet(db: StageDb, sid: string, key: string, value: string, size: number) {
  await db
    .insertInto('backend_kv')
    .values({ app_sid: sid, key, value, size })
    .onConflict((oc) =>
      oc.columns(['app_sid', 'key']).doUpdateSet({ value, size, updated_at: sql`now()` }),
    )
    .execute();
}

export async function kvDelete(db: StageDb, sid: string, key: string): Promise<boolean> {
  const result = await db
    .deleteFrom('backend_kv')
    .where('app_sid', '=', sid)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** How many keys, and bytes of values, an app keeps in kv besides `except` (the key being set). */
export async function kvUsage(db: StageDb, sid: string, except: string) {
  const row = await db
    .selectFrom('backend_kv')
    .select((eb) => [
      eb.fn.countAll<string>().as('keys'),
      eb.fn.sum<string | null>('size').as('bytes'),
    ]) // prettier-ignore
    .where('app_sid', '=', sid)
    .where('key', '<>', except)
    .executeTakeFirstOrThrow();
  return { keys: Number(row.keys), bytes: Number(row.bytes ?? 0) };
}

/** Keys starting with `prefix`, in byte order, after `after`; one more than `limit` tells of more. */
export async function kvList(
  db: StageDb,
  sid: string,
  options: { prefix: string; after: string | null; limit: number },
) {
  let query = db
    .selectFrom('backend_kv')
    .select('key')
    .where('app_sid', '=', sid)
    .where(sql<boolean>`starts_with(key, ${options.prefix})`);
  if (options.after !== null) query = query.where('key', '>', options.after);
  const rows = await query
    .orderBy('key')
    .limit(options.limit + 1)
    .execute();
  const keys = rows.slice(0, options.limit).map((r) => r.key);
  return { keys, cursor: rows.length > options.limit ? keys[keys.length - 1] : null };
}

/** The session's current files with their contents, in the order the hash above takes them. */
export async function sessionFiles(db: StageDb, sessionId: string) {
  const rows = await db
    .selectFrom('files as f')
    .innerJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'f.hash', 'b.content', 'b.bytes'])
    .where('f.session_id', '=', sessionId)
    .orderBy(sql`f.path collate "C"`)
    .execute();
  return rows.map(({ path, hash, ...blob }) => ({ path, hash, content: stored(blob) }));
}
