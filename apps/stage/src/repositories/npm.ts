import type { StageDb } from '../database/index.js';

/** A cached tarball by the integrity it was checked against. */
export async function findTarball(db: StageDb, integrity: string): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('npm_packages')
    .select('tarball')
    .where('integrity', '=', integrity)
    .executeTakeFirst();
  return row ? Buffer.from(row.tarball) : undefined;
}

/** Keeps a checked tarball for every session and instance (a second copy is ignored). */
export async function saveTarball(
  db: StageDb,
  row: { integrity: string; name: string; version: string; tarball: Buffer; unpackedSize: number; files: number }, // prettier-ignore
): Promise<void> {
  await db
    .insertInto('npm_packages')
    .values({
      integrity: row.integrity,
      name: row.name,
      version: row.version,
      tarball: row.tarball,
      size: row.tarball.length,
      unpacked_size: row.unpackedSize,
      files: row.files,
    })
    .onConflict((oc) => oc.column('integrity').doNothing())
    .execute();
}
