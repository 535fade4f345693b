import { createHash } from 'node:crypto';
import type { StageConfig } from '../../config.js';
import type { StageDb } from '../../database/index.js';
import { NpmPackages } from '../npm/packages.js';
import { saveLock } from '../npm/session.js';
import { BACKEND_ENTRIES, bundleBackend } from './bundle.js';
import { sessionFiles, type BackendApp } from '../../repositories/backends.js';

/** An app's backend at one version of its files. */
export type Build =
  | { kind: 'ok'; hash: string; code: string }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

/**
 * Bundles by version of the session's files (what appForBackend answers with every request):
 * a changed or newly published session has a new version, bundled at its first request. Bounded:
 * the least recently used are dropped. Builds that fail are kept too (until the files change).
 * With `config`, bare imports are npm packages (domain/npm), and a build that pins new ones writes the
 * session's lock (a new version of its files: the next request builds again, fetching nothing).
 */
export class BuildCache {
  private builds = new Map<string, Promise<Build>>();
  private readonly packages: NpmPackages | undefined;

  constructor(
    private readonly db: StageDb,
    private readonly size: number,
    private readonly config?: StageConfig,
  ) {
    this.packages = config && new NpmPackages(db, config.npm);
  }

  close() {
    return this.packages?.close();
  }

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
    const { packages, config } = this;
    const install = packages && ((imports: readonly string[]) => packages.install(files, imports));
    const bundle = await bundleBackend(entry, files, install);
    if (bundle.ok && bundle.lock && config) await saveLock(this.db, sessionId, files, bundle.lock, config); // prettier-ignore
    return bundle.ok ? { kind: 'ok', hash, code: bundle.code } : { kind: 'error', message: bundle.message }; // prettier-ignore
  }
}
