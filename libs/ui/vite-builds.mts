import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** Where a web UI's dist records when its last build started. */
export const BUILDS_RECORD = '.vite-builds.json';

/**
 * A rebuild under a running platform must not remove what it serves: a page loaded before the
 * build still asks for the assets (hashed names) of the build before. So instead of emptying the
 * output folder, each build keeps the files of the one before it and removes only older ones:
 * those last written before the previous build started (less a second, for the file system's
 * coarser clock). `started` is this build's start; the first build removes everything older.
 */
export async function removeOlderBuilds(dir: string, started: number): Promise<string[]> {
  const record = join(dir, BUILDS_RECORD);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => null);
  if (!entries) return []; // no folder: nothing built, nothing to remove
  const previous = await readFile(record, 'utf8')
    .then((text) => Number((JSON.parse(text) as { started?: unknown }).started) || started)
    .catch(() => started);
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name === BUILDS_RECORD) continue;
    const file = join(entry.parentPath, entry.name);
    if ((await stat(file)).mtimeMs < previous - 1_000) {
      await rm(file, { force: true });
      removed.push(file);
    }
  }
  await writeFile(record, JSON.stringify({ started }));
  return removed;
}

/** The Vite side of `removeOlderBuilds` (with `build.emptyOutDir: false`). */
export function olderBuildsRemoved(): Plugin {
  let outDir = '';
  let started = 0;
  return {
    name: 'platform-older-builds-removed',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      started = Date.now();
    },
    async closeBundle() {
      await removeOlderBuilds(outDir, started);
    },
  };
}
