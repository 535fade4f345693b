import { posix } from 'node:path';
import { ApiError } from '@platform/core';
import type { StageDb } from '../database/index.js';
import { checkPath, contentType } from './paths.js';
import { currentContents } from '../repositories/files.js';

/** The folder next to a page's index.html served at the page's root, as Vite serves `public/`. */
export const PUBLIC_DIR = 'public';

/**
 * The session file a page's address `rest` (below the page root, without its leading /) names,
 * with the media type it is served with: `<root>/public/<rest>` first (Vite's public folder, at
 * the root), else `<root>/<rest>`. Text as text, a binary file as its bytes; null when there is no
 * such file (or `rest` is no file path: `..` never climbs out of the page's folder).
 */
export async function pageFile(
  db: StageDb,
  sessionId: string,
  root: string,
  rest: string,
): Promise<{ type: string; body: string | Buffer } | null> {
  let name: string;
  try {
    // Checked before it is joined: `..` must not climb out of the page's folder.
    name = checkPath(`/${rest}`);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'BAD_REQUEST') return null;
    throw error;
  }
  const candidates = [posix.join(root, PUBLIC_DIR, name), posix.join(root, name)];
  const found = await currentContents(db, sessionId, candidates);
  for (const path of candidates) {
    const body = found.get(path);
    if (body !== undefined) return { type: contentType(path, typeof body !== 'string'), body };
  }
  return null;
}
