import type { StageDb } from '../../database/index.js';
import type { NpmConfig } from '../../config/npm.js';
import {
  nameAt,
  type Files,
  PACKAGE_JSON,
  PACKAGE_LOCK,
  readLock,
  readManifest,
  writeLock,
  type LockEntry,
  type Tree,
} from './lock.js';
import { layOut } from './materialise.js';
import { Registry, NpmError } from './registry.js';
import { findTarball, saveTarball } from '../../repositories/npm.js';
import { resolveTree } from './resolve.js';
import { checkIntegrity, unpack, type PackageFile } from './tarball.js';

/** What an app's bare imports resolve in, and the lock to keep when it changed. */
export interface Installed {
  /** A folder whose node_modules holds the pinned packages (and nothing else). */
  root: string;
  /** The new /app/package-lock.json text, or null when the session's is already this. */
  lock: string | null;
}

/**
 * npm packages for sessions: versions from /app/package.json (or the latest), pinned in
 * /app/package-lock.json, tarballs checked against their integrity and kept in the database for
 * every session and instance, laid out on disk for the bundler. No install script ever runs:
 * packages are only unpacked.
 */
export class NpmPackages {
  private readonly registry: Registry;
  /** Trees being laid out: a render asking for one meanwhile waits for the same. */
  private readonly layingOut = new Map<string, Promise<string>>();

  constructor(
    private readonly db: StageDb,
    private readonly config: NpmConfig,
  ) {
    this.registry = new Registry(config);
  }

  /** Installs what the app wants and `imports` (package names its code imports). */
  async install(files: Files, imports: readonly string[]): Promise<Installed> {
    const manifest = readManifest(files);
    const lock = readLock(files);
    const wanted = new Map<string, { spec: string; by: string }>();
    for (const [name, spec] of lock.wanted) wanted.set(name, { spec, by: PACKAGE_LOCK });
    for (const [name, spec] of manifest.dependencies) wanted.set(name, { spec, by: PACKAGE_JSON });
    for (const name of imports)
      if (!wanted.has(name)) wanted.set(name, { spec: 'latest', by: 'an import of the app' });
    const tree = await resolveTree(
      [...wanted].map(([name, want]) => ({ name, ...want })),
      {
        pinned: lock.tree,
        packument: (name) => this.registry.packument(name),
        maxPackages: this.config.maxPackages,
      },
    );
    // As `npm install <name>` saves it: the range of what was installed.
    const ranges = new Map(
      [...wanted].map(([name, { spec }]) => [
        name,
        spec === 'latest' ? `^${tree.get(`node_modules/${name}`)!.version}` : spec,
      ]),
    );
    const text = writeLock(manifest.name, ranges, tree);
    const root = await this.layOut(tree);
    return { root, lock: text === lock.text ? null : text };
  }

  close() {
    return this.registry.close();
  }

  private layOut(tree: Tree): Promise<string> {
    const key = JSON.stringify([...tree].map(([path, entry]) => [path, entry.integrity]).sort());
    let root = this.layingOut.get(key);
    if (!root) {
      // Looked for on disk each time: the cache folder may be emptied while the service runs.
      root =
        layOut(this.config.cacheDir, tree, (path) => this.filesOf(path, tree.get(path)!), this.config.maxTotalBytes) // prettier-ignore
          .finally(() => this.layingOut.delete(key));
      this.layingOut.set(key, root);
    }
    return root;
  }

  /** A pinned package's files: its tarball from the database, else from the registry (then kept). */
  private async filesOf(path: string, entry: LockEntry): Promise<PackageFile[]> {
    const name = nameAt(path);
    const what = `${name}@${entry.version}`;
    const max = this.config.maxPackageBytes;
    const cached = await findTarball(this.db, entry.integrity);
    if (cached) {
      checkIntegrity(cached, entry.integrity, what);
      return unpack(cached, what, max);
    }
    // A lock's URL is followed only to the registry; else the registry says where the tarball is.
    const url = this.registry.onRegistry(entry.resolved)
      ? entry.resolved
      : await this.tarballUrl(name, entry.version);
    const tarball = await this.registry.tarball(name, entry.version, url);
    checkIntegrity(tarball, entry.integrity, what);
    const files = await unpack(tarball, what, max);
    const unpackedSize = files.reduce((sum, file) => sum + file.data.length, 0);
    await saveTarball(this.db, { integrity: entry.integrity, name, version: entry.version, tarball, unpackedSize, files: files.length }); // prettier-ignore
    return files;
  }

  private async tarballUrl(name: string, version: string) {
    const manifest = (await this.registry.packument(name)).versions[version];
    if (!manifest)
      throw new NpmError(`"${name}@${version}", pinned in ${PACKAGE_LOCK}, is not in the npm registry`); // prettier-ignore
    return manifest.dist.tarball;
  }
}
