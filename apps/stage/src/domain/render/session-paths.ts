import { posix } from 'node:path';
import type { OnResolveArgs, OnResolveResult } from 'esbuild';

/** A session's files by path as the bundlers read them: text, or the bytes of a binary file. */
export type SessionFiles = ReadonlyMap<string, string | Uint8Array>;

/** Whether an import names a session file (absolute or relative) rather than a package. */
export const isFileSpec = (spec: string) =>
  spec.startsWith('/') || spec.startsWith('./') || spec.startsWith('../');

/**
 * Resolves an import of a session file among `files`, trying `extensions` and index files as
 * bundlers do; a missing file is an error naming the path in the session (never one on the server).
 */
export function resolveSessionFile(
  files: SessionFiles,
  extensions: readonly string[],
  args: Pick<OnResolveArgs, 'path' | 'importer'>,
  namespace: string,
): OnResolveResult {
  const spec = args.path;
  const wanted = (
    spec.startsWith('/') ? posix.normalize(spec) : posix.join(posix.dirname(args.importer), spec)
  ).replace(/\/$/, '');
  const candidates = [
    wanted,
    ...extensions.map((ext) => wanted + ext),
    ...extensions.map((ext) => `${wanted}/index${ext}`),
  ];
  const found = candidates.find((path) => files.has(path));
  if (found) return { path: found, namespace };
  return { errors: [{ text: `Could not resolve "${spec}": no file ${wanted} in the session` }] };
}
