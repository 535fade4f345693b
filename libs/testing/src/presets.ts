import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { onceFor } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';

/**
 * What a test database holds when the test gets it: what `prepare` made of an empty database
 * (the migrations of a whole gateway, say), made once per machine and copied for each test.
 * `sources`, files or folders (those absent are passed over), are what `prepare` runs: the copy
 * is made again whenever one of them changes.
 */
export interface DatabasePreset {
  name: string;
  sources: readonly string[];
  prepare(db: PlatformDatabase): Promise<unknown>;
}

const keys = new WeakMap<DatabasePreset, Promise<string>>();

/** The files a source names: itself, those in it when it is a folder, none when it is absent. */
async function filesOf(source: string): Promise<string[]> {
  const found = await stat(source).catch(() => undefined);
  if (!found?.isDirectory()) return found ? [source] : [];
  const entries = await readdir(source, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The preset's name and a digest of its sources' contents. */
export const keyOf = (preset: DatabasePreset): Promise<string> =>
  onceFor(keys, preset, async () => {
    const digest = createHash('sha256');
    const files = (await Promise.all(preset.sources.map(filesOf))).flat().sort();
    for (const file of files) digest.update(file).update(await readFile(file));
    return `${preset.name}-${digest.digest('hex').slice(0, 16)}`;
  });
