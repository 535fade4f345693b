import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { CliError, usageError } from './errors.js';

/** Directories a push never takes. */
const SKIP = new Set(['node_modules', '.git', 'dist', '.DS_Store']);

/** Longest path a session file may have (apps/stage: MAX_PATH_LENGTH). */
const MAX_PATH_LENGTH = 512;

/** Every file under a directory (or the file itself), and what was left out: symlinks, sockets. */
export interface Listing {
  /** Relative paths with `/`, sorted; `''` when the root is a file. */
  files: string[];
  /** Relative paths of entries not taken: symlinks are never followed, nor other special files. */
  skipped: string[];
}

export function listFiles(root: string): Listing {
  let stat;
  try {
    stat = statSync(root);
  } catch {
    throw usageError(`No such file or directory: ${root}`);
  }
  if (stat.isFile()) return { files: [''], skipped: [] };
  const files: string[] = [];
  const skipped: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join('/');
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(rel);
      else skipped.push(rel);
    }
  };
  walk(root);
  return { files: files.sort(), skipped: skipped.sort() };
}

export interface PushLimits {
  /** Largest file (bytes): the stage's STAGE_MAX_FILE_BYTES. */
  maxFileBytes: number;
  /** Largest request body: more goes in several requests. */
  maxRequestBytes: number;
}

// ignoreBOM: a byte order mark is part of the text, kept as it is.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file as a push sends it: text as it is, other bytes (images, fonts) in base64. */
export type PushedFile = string | { content: string; encoding: 'base64' };

/** A file's bytes as a push sends them: text when they are UTF-8 without NUL, else base64. */
export function pushedFile(bytes: Buffer): PushedFile {
  if (!bytes.includes(0))
    try {
      return utf8.decode(bytes);
    } catch {
      // Not UTF-8: bytes.
    }
  return { content: bytes.toString('base64'), encoding: 'base64' };
}

/** A file as the stage answers it with its content: text, or base64 marked `encoding`. */
export const bytesOf = (file: { content: string; encoding?: string }) =>
  file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : file.content;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The files of a directory as `{ "<prefix>/<relative path>": content }` (binary files, by their
 * bytes, as `{ content: <base64>, encoding: 'base64' }`), every one checked first (size, path):
 * all problems at once, nothing sent (exit 2). One batch when the whole fits in a request, else
 * batches of at most `maxRequestBytes` of JSON.
 */
export function readPush(root: string, prefix: string, limits: PushLimits) {
  const { files, skipped } = listFiles(root);
  const problems: string[] = [];
  const entries: Array<[string, PushedFile, number]> = [];
  for (const file of files) {
    const name = file === '' ? root.split(/[\\/]/).pop()! : file;
    const path = posix.join(prefix.startsWith('/') ? prefix : `/${prefix}`, name);
    const bytes = readFileSync(file === '' ? root : join(root, file));
    const content = pushedFile(bytes);
    if (bytes.length > limits.maxFileBytes)
      problems.push(
        `${name}: ${bytes.length} bytes, over the ${limits.maxFileBytes} a file may have`,
      );
    if (path.length > MAX_PATH_LENGTH)
      problems.push(`${name}: ${path} is longer than ${MAX_PATH_LENGTH} characters`);
    if (/[\u0000-\u001f\u007f]/.test(path))
      problems.push(`${name}: control characters in the name`);
    entries.push([path, content, JSON.stringify(path).length + JSON.stringify(content).length + 2]);
  }
  if (problems.length > 0)
    throw usageError(
      `Nothing pushed: ${plural(problems.length, 'problem')}\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  const batches: Array<Record<string, PushedFile>> = [];
  let batch: Record<string, PushedFile> = {};
  let size = 0;
  for (const [path, content, bytes] of entries) {
    if (size > 0 && size + bytes > limits.maxRequestBytes) {
      batches.push(batch);
      batch = {};
      size = 0;
    }
    batch[path] = content;
    size += bytes;
  }
  if (size > 0) batches.push(batch);
  return { batches, count: entries.length, skipped };
}

/**
 * Where each session file goes under `dir` (its path without `prefix`), every path checked before
 * anything is written: one that would land outside `dir`, or go through a symlink inside it
 * (checked with lstat), refuses the whole pull (exit 1) naming each.
 */
export function pullTargets(dir: string, prefix: string, paths: string[]): string[] {
  const base = resolve(dir);
  const problems: string[] = [];
  const targets = paths.map((path) => {
    const rel = path.startsWith(`${prefix}/`)
      ? path.slice(prefix.length + 1)
      : path.replace(/^\/+/, '');
    const target = resolve(base, rel);
    if (!target.startsWith(base + sep)) {
      problems.push(`${path}: outside ${dir}`);
      return target;
    }
    let at = base;
    for (const part of relative(base, target).split(sep)) {
      at = join(at, part);
      let stat;
      try {
        stat = lstatSync(at);
      } catch {
        break; // Not there yet: nothing below it is either.
      }
      if (stat.isSymbolicLink()) {
        problems.push(`${path}: ${relative(base, at)} in ${dir} is a symlink`);
        break;
      }
      if (at !== target && !stat.isDirectory()) {
        problems.push(`${path}: ${relative(base, at)} in ${dir} is not a directory`);
        break;
      }
    }
    return target;
  });
  if (problems.length > 0)
    throw new CliError(
      `Nothing written: ${plural(problems.length, 'path')} refused\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  return targets;
}

/** Writes the files at the targets pullTargets checked. */
export function writeAll(targets: string[], contents: Array<string | Buffer>): void {
  targets.forEach((target, i) => {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents[i]);
  });
}
