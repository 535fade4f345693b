import type { StageDb } from '../../database/index.js';
import { changeFiles, contentOf, sha256, type Limits } from '../../repositories/files.js';
import { PACKAGE_LOCK, type Files } from './lock.js';

/**
 * Writes the session's new /app/package-lock.json (what a render or a backend build pinned), as a
 * new version of the file; unless the lock changed since `files` were read (a push meanwhile):
 * then that one stands, and the next render works from it.
 */
export async function saveLock(
  db: StageDb,
  sessionId: string,
  files: Files,
  lock: string,
  limits: Limits,
): Promise<void> {
  const before = files.get(PACKAGE_LOCK);
  const hash = before === undefined ? null : sha256(typeof before === 'string' ? before : Buffer.from(before)); // prettier-ignore
  await changeFiles(
    db,
    sessionId,
    (current) => ((current.get(PACKAGE_LOCK)?.hash ?? null) === hash ? [contentOf(PACKAGE_LOCK, lock)] : []), // prettier-ignore
    limits,
  );
}
