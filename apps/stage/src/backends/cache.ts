import { createHash } from 'node:crypto';
import type { StageDb } from '../database.js';
import { BACKEND_ENTRIES, bundleBackend } from './bundle.js';
import { sessionFiles, type BackendApp } from './repository.js';

/** An app's backend at one version of its files. */
export type Build =
  | { kind: 'ok'; hash: string; code: string }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

/**
 * Bundles by version of the session's files (what appForBackend answers with every request):
 * a changed or newly published session has a new version, bundled at its first request. Bounded:
 * the least recently used are dropped. Builds that fail are kept too (until the files change).
 */
export class BuildCache {
  private builds = new Map<string, Promise<Build>>();

  constructor(
    private readonly db: StageDb,
    private readonly size: number,
  ) {}

  get(app: BackendApp): Promise<Build> {
    if (app.files_version === null) return Promise.resolve({ kind: 'none' });
    const key = app.files_version;
    let build = this.builds.get(key);
    if (build) this.builds.delete(key);
    else {
      build = this.build(app.session_id);
      // A failure to read or bundle (not a build error) is not kept: the next request tries again.
      build.catch(() => this.builds.delete(key));
    }
    this.builds.set(key, build);
    for (const old of this.builds.keys()) {
      if (this.builds.size <= this.size) break;
      this.builds.delete(old);
    }
    return build;
  }

  private async build(sessionId: string): Promise<Build> {
    const rows = await sessionFiles(this.db, sessionId);
    const files = new Map(rows.map((r) => [r.path, r.content]));
    // The files read now (they may be newer than the version that sent us here): the isolate's.
    const hash = createHash('md5')
      .update(rows.map((r) => `${r.path}:${r.hash}`).join(','))
      .digest('hex');
    const entry = BACKEND_ENTRIES.find((path) => files.has(path));
    if (!entry) return { kind: 'none' };
    const bundle = await bundleBackend(entry, files);
    return bundle.ok ? { kind: 'ok', hash, code: bundle.code } : { kind: 'error', message: bundle.message }; // prettier-ignore
  }
}
