import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nameAt, type Tree } from './lock.js';
import { NpmError } from './registry.js';
import type { PackageFile } from './tarball.js';

/** Tarballs fetched or read at once while a tree is laid out. */
const PARALLEL = 8;

/**
 * The folder holding `tree` as a node_modules tree on disk (`<dir>/trees/<key>/node_modules/...`),
 * for esbuild to resolve in as in any project. The key is the tree's paths and integrities, so a
 * tree is laid out once per disk and shared by every session that pins the same packages. A new
 * tree is written to a folder of its own and renamed into place whole: a reader never sees half
 * of one, and two instances writing the same tree do not mix.
 */
export async function layOut(
  dir: string,
  tree: Tree,
  filesOf: (path: string) => Promise<PackageFile[]>,
  maxTotalBytes: number,
): Promise<string> {
  const key = createHash('sha256')
    .update(
      [...tree]
        .map(([path, e]) => `${path}\t${e.integrity}\n`)
        .sort()
        .join(''),
    )
    .digest('hex')
    .slice(0, 32);
  const root = join(dir, 'trees', key);
  if (await exists(join(root, 'node_modules'))) return root;
  const temp = join(dir, 'tmp', `${key}.${randomUUID()}`);
  try {
    let total = 0;
    const paths = [...tree.keys()];
    for (let i = 0; i < paths.length; i += PARALLEL) {
      const batch = paths.slice(i, i + PARALLEL);
      const unpacked = await Promise.all(batch.map((path) => filesOf(path)));
      for (const [n, files] of unpacked.entries()) {
        total += files.reduce((sum, f) => sum + f.data.length, 0);
        if (total > maxTotalBytes)
          throw new NpmError(
            `The app's npm packages add up to more than ${maxTotalBytes} bytes unpacked (STAGE_NPM_MAX_TOTAL_BYTES), "${nameAt(batch[n])}" included`,
          );
        for (const file of files) {
          const target = join(temp, batch[n], file.path);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, file.data);
        }
      }
    }
    await mkdir(join(temp, 'node_modules'), { recursive: true });
    await mkdir(dirname(root), { recursive: true });
    await rename(temp, root).catch(async (error: NodeJS.ErrnoException) => {
      // Laid out meanwhile by another render or instance: theirs is the same.
      if (!(await exists(join(root, 'node_modules')))) throw error;
    });
    return root;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
