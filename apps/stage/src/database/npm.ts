import type { Generated } from '@platform/db';

/** The tables of npm packages (src/domain/npm), part of StageDatabase. */
export interface NpmTables {
  npm_packages: NpmPackagesTable;
}

/** A package tarball as the registry published it, checked against its integrity. */
export interface NpmPackagesTable {
  integrity: string;
  name: string;
  version: string;
  /** The gzipped tarball, byte for byte. */
  tarball: Uint8Array;
  /** Bytes of the tarball, and of its files unpacked. */
  size: number;
  unpacked_size: number;
  /** Files it holds. */
  files: number;
  created_at: Generated<Date>;
}
