import { createHash, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { NpmError, type Manifest } from './registry.js';

/** Subresource Integrity algorithms a registry gives, strongest first. */
const ALGORITHMS = ['sha512', 'sha384', 'sha256', 'sha1'] as const;

/** The integrity of a registry version: `dist.integrity`, else its SHA-1 `shasum` in SRI form. */
export function integrityOf(manifest: Manifest): string {
  const { integrity, shasum } = manifest.dist;
  if (integrity) return integrity;
  if (shasum && /^[0-9a-f]{40}$/i.test(shasum))
    return `sha1-${Buffer.from(shasum, 'hex').toString('base64')}`;
  throw new NpmError(`The registry gives no integrity for "${manifest.name}@${manifest.version}"`);
}

/**
 * Checks `bytes` against an SRI string (`sha512-<base64>`, several separated by spaces): the
 * strongest algorithm given must match. A mismatch (a tampered or corrupted tarball) is an
 * NpmError naming the package.
 */
export function checkIntegrity(bytes: Buffer, integrity: string, what: string): void {
  const hashes = new Map<string, string>();
  for (const token of integrity.trim().split(/\s+/)) {
    const match = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(token);
    if (match && !hashes.has(match[1])) hashes.set(match[1], match[2]);
  }
  const algorithm = ALGORITHMS.find((name) => hashes.has(name));
  if (!algorithm) throw new NpmError(`The integrity of "${what}" (${integrity}) is not one this platform checks (sha512, sha384, sha256, sha1)`); // prettier-ignore
  const expected = Buffer.from(hashes.get(algorithm)!, 'base64');
  const actual = createHash(algorithm).update(bytes).digest();
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    throw new NpmError(
      `The tarball of "${what}" does not match its integrity ${algorithm}-${hashes.get(algorithm)} (it is ${algorithm}-${actual.toString('base64')}): refused`,
    );
}

export interface PackageFile {
  /** Inside the package, without the tarball's first folder (`package/`): `lib/index.js`. */
  path: string;
  data: Buffer;
}

/**
 * The regular files of a package tarball (gzipped tar). Links, devices and folders are skipped,
 * and so are paths that would leave the package (absolute, `..`). More than `maxBytes` unpacked
 * is an NpmError naming STAGE_NPM_MAX_PACKAGE_BYTES. Nothing is run and nothing is written.
 */
export async function unpack(tgz: Buffer, what: string, maxBytes: number): Promise<PackageFile[]> {
  const tooBig = () =>
    new NpmError(
      `"${what}" is larger than ${maxBytes} bytes unpacked (STAGE_NPM_MAX_PACKAGE_BYTES)`,
    );
  let tar: Buffer;
  try {
    // Headers and padding take up to 1 KiB a file besides its bytes: bounded all the same.
    tar = gunzipSync(tgz, { maxOutputLength: 2 * maxBytes + 1024 * 1024 });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig();
    throw new NpmError(`The tarball of "${what}" is not gzip data`);
  }
  const files: PackageFile[] = [];
  let total = 0;
  let failure: Error | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const path = insidePackage(entry.path);
      if (!['File', 'OldFile', 'ContiguousFile'].includes(entry.type) || path === null) {
        entry.resume();
        return;
      }
      total += entry.size;
      if (total > maxBytes) failure ??= tooBig();
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => {
        if (!failure) chunks.push(chunk);
      });
      entry.on('end', () => {
        if (!failure) files.push({ path, data: Buffer.concat(chunks) });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', (error: Error) => reject(error));
    parser.on('end', () => resolve());
    parser.end(tar);
  }).catch((error: Error) => {
    throw new NpmError(`The tarball of "${what}" is not a valid tar archive (${error.message})`);
  });
  if (failure) throw failure;
  return files;
}

/** A tarball entry's path inside the package, or null for one that would leave it. */
function insidePackage(entryPath: string): string | null {
  const parts = entryPath.replace(/\\/g, '/').split('/').slice(1);
  if (parts.length === 0 || parts.includes('..') || entryPath.startsWith('/')) return null;
  const path = posix.normalize(parts.join('/'));
  return path === '.' || path.startsWith('../') || path.startsWith('/') ? null : path;
}
