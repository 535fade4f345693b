import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { ApiError, badRequest, notFound } from '@platform/core';
import { sql } from '@platform/db';
import type { FileRow, StageDb } from '../database/index.js';
import { byteSize } from '../domain/paths.js';
import { useSession } from './sessions.js';

export interface Limits {
  maxFileBytes: number;
  maxFiles: number;
  maxSessionBytes: number;
}

/**
 * What a file holds: text (UTF-8 without NUL, what PostgreSQL's text can hold), or its bytes for
 * anything else (images, fonts). One form per content: bytes that are such text are text.
 */
export type Data = string | Buffer;

/** A file as written: its path, content, size in bytes and SHA-256 of its bytes. */
export interface Content {
  path: string;
  content: Data;
  size: number;
  hash: string;
}

export const sha256 = (content: Data) => createHash('sha256').update(content).digest('hex');

/** Bytes in the form they are stored in: text when they are UTF-8 without NUL, else bytes. */
export const dataOf = (bytes: Buffer): Data =>
  isUtf8(bytes) && !bytes.includes(0) ? bytes.toString('utf8') : bytes;

export const contentOf = (path: string, content: Data): Content => ({
  path,
  content,
  size: typeof content === 'string' ? byteSize(content) : content.length,
  hash: sha256(content),
});

/** A blob row's content: its text, or its bytes (a Buffer over what the driver gave). */
export const stored = ({ content, bytes }: { content: string | null; bytes: Uint8Array | null }) =>
  bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : (content ?? '');

const textOf = (data: Data) => (typeof data === 'string' ? data : data.toString('utf8'));

// Rows per INSERT: well under PostgreSQL's 65535 parameters.
const CHUNK = 1000;

async function insertBlobs(db: StageDb, contents: readonly Content[]) {
  // In hash order: two pushes taking up the same new contents lock them in the same order.
  const unique = [...new Map(contents.map((c) => [c.hash, c])).values()].sort((a, b) =>
    a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0,
  );
  for (let i = 0; i < unique.length; i += CHUNK) {
    await db
      .insertInto('blobs')
      .values(
        unique
          .slice(i, i + CHUNK)
          .map(({ hash, content }) =>
            typeof content === 'string'
              ? { hash, content, bytes: null }
              : { hash, content: null, bytes: content },
          ),
      )
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
}

/** The row of every path the session ever had (deleted ones too: their version goes on). */
const allPaths = (db: StageDb, sessionId: string) =>
  db.selectFrom('files').selectAll().where('session_id', '=', sessionId).execute();

/**
 * Writes (or, with content null, deletes) files as one transaction on the session's locked row:
 * every path gets the next version of its own, never one given before, and the whole change
 * stands or none of it (a limit passed, a deleted path that is not there).
 */
export function writeFiles(
  db: StageDb,
  sessionId: string,
  changes: readonly Change[],
  limits: Limits,
): Promise<FileRow[]> {
  return changeFiles(db, sessionId, () => changes, limits);
}

/** A file written (content) or deleted (content null). */
export type Change = Content | { path: string; content: null };

/**
 * writeFiles with the changes worked out from the session's files as they are once its row is
 * locked (`plan` is given every path the session ever had, deleted ones with a null hash).
 */
export function changeFiles(
  db: StageDb,
  sessionId: string,
  plan: (current: ReadonlyMap<string, FileRow>) => readonly Change[],
  limits: Limits,
): Promise<FileRow[]> {
  return db.transaction().execute(async (trx) => {
    await useSession(trx, sessionId);
    const current = new Map((await allPaths(trx, sessionId)).map((row) => [row.path, row]));
    const changes = plan(current);
    const rows: FileRow[] = [];
    const writes: Content[] = [];
    for (const change of changes) {
      const before = current.get(change.path);
      if (change.content === null && !before?.hash) throw notFound('File', change.path);
      const write = change.content === null ? undefined : (change as Content);
      const row: FileRow = {
        session_id: sessionId,
        path: change.path,
        version: (before?.version ?? 0) + 1,
        hash: write?.hash ?? null,
        size: write?.size ?? 0,
        updated_at: new Date(),
      };
      current.set(change.path, row);
      rows.push(row);
      if (write) writes.push(write);
    }
    checkLimits([...current.values()], limits);
    await insertBlobs(trx, writes);
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK).map(({ updated_at: _, ...row }) => row);
      await trx.insertInto('file_versions').values(chunk).execute();
      await trx
        .insertInto('files')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['session_id', 'path']).doUpdateSet((eb) => ({
            version: eb.ref('excluded.version'),
            hash: eb.ref('excluded.hash'),
            size: eb.ref('excluded.size'),
            updated_at: sql`now()`,
          })),
        )
        .execute();
    }
    return rows;
  });
}

function checkLimits(files: readonly FileRow[], limits: Limits) {
  const live = files.filter((f) => f.hash !== null);
  const big = live.find((f) => f.size > limits.maxFileBytes);
  if (big)
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `File ${big.path} is ${big.size} bytes; a file may have at most ${limits.maxFileBytes} (STAGE_MAX_FILE_BYTES)`,
    );
  if (live.length > limits.maxFiles)
    throw badRequest(
      `The session would hold ${live.length} files; it may hold at most ${limits.maxFiles} (STAGE_MAX_FILES)`,
    );
  const total = live.reduce((sum, f) => sum + f.size, 0);
  if (total > limits.maxSessionBytes)
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `The session's files would add up to ${total} bytes; they may have at most ${limits.maxSessionBytes} (STAGE_MAX_SESSION_BYTES)`,
    );
}

/** The current files of a session (no contents; whether each is bytes), by path. */
export function listFiles(db: StageDb, sessionId: string) {
  return db
    .selectFrom('files as f')
    .innerJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'f.version', 'f.size', 'f.hash', 'f.updated_at'])
    .select(sql<boolean>`b.bytes is not null`.as('binary'))
    .where('f.session_id', '=', sessionId)
    .orderBy('f.path')
    .execute();
}

/** The current files of a session with their contents, by path. */
export async function filesWithContent(db: StageDb, sessionId: string) {
  const rows = await db
    .selectFrom('files as f')
    .innerJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'f.version', 'f.size', 'b.content', 'b.bytes'])
    .where('f.session_id', '=', sessionId)
    .orderBy('f.path')
    .execute();
  return rows.map(({ path, version, size, ...blob }) => ({
    path,
    version,
    size,
    content: stored(blob),
  }));
}

/** The current contents of those of `paths` the session has. */
export async function currentContents(db: StageDb, sessionId: string, paths: readonly string[]) {
  const rows = await db
    .selectFrom('files as f')
    .innerJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'b.content', 'b.bytes'])
    .where('f.session_id', '=', sessionId)
    .where('f.path', 'in', paths)
    .execute();
  return new Map(rows.map(({ path, ...blob }) => [path, stored(blob)]));
}

/**
 * One file: the current version, or `version`; NOT_FOUND naming what is missing. `data` is what it
 * holds (text or bytes), `content` its text (bytes read as UTF-8, for readers of text files).
 */
export async function readFile(db: StageDb, sessionId: string, path: string, version?: number) {
  const row = await (
    version === undefined
      ? db.selectFrom('files as f').where('f.session_id', '=', sessionId).where('f.path', '=', path)
      : db
          .selectFrom('file_versions as f')
          .where('f.session_id', '=', sessionId)
          .where('f.path', '=', path)
          .where('f.version', '=', version)
  )
    .leftJoin('blobs as b', 'b.hash', 'f.hash')
    .select(['f.path', 'f.version', 'f.size', 'f.hash', 'b.content', 'b.bytes'])
    .executeTakeFirst();
  if (!row || row.hash === null)
    throw version === undefined || !row
      ? notFound('File', version === undefined ? path : `${path} version ${version}`)
      : notFound('File', `${path} version ${version} (deleted)`);
  const data = stored(row);
  return { path: row.path, version: row.version, size: row.size, data, content: textOf(data) };
}

/** Every version of one path, newest first; deletions have no hash. */
export function fileHistory(
  db: StageDb,
  sessionId: string,
  path: string,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('file_versions')
    .select(['version', 'size', 'hash', 'created_at'])
    .where('session_id', '=', sessionId)
    .where('path', '=', path)
    .orderBy('version', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
