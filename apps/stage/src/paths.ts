import { extname, posix } from 'node:path';
import { badRequest } from '@platform/core';

/** Longest file path a session accepts, in characters. */
export const MAX_PATH_LENGTH = 512;

/**
 * The path as stored, or a 400 saying what is wrong with it: absolute, already normalised (no
 * `.`, `..`, `//` or trailing `/`), no NUL or other control character, at most MAX_PATH_LENGTH.
 */
export function checkPath(path: string, field = 'path'): string {
  const problem =
    typeof path !== 'string'
      ? 'must be a string'
      : path.length === 0
        ? 'must not be empty'
        : path.length > MAX_PATH_LENGTH
          ? `is longer than ${MAX_PATH_LENGTH} characters`
          : !path.startsWith('/')
            ? 'must be absolute (start with /)'
            : /[\u0000-\u001f\u007f]/.test(path)
              ? 'must not contain NUL or other control characters'
              : path.split('/').some((part) => part === '..')
                ? 'must not contain ..'
                : path === '/' || posix.normalize(path) !== path || path.endsWith('/')
                  ? 'must be normalised (no ., // or trailing /)'
                  : undefined;
  if (problem) throw badRequest(`${field} ${JSON.stringify(truncate(path))} ${problem}`);
  return path;
}

const truncate = (value: unknown) =>
  typeof value === 'string' && value.length > 80 ? `${value.slice(0, 77)}...` : value;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.jsx': 'text/javascript',
  '.ts': 'text/typescript',
  '.tsx': 'text/typescript',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown',
  '.xml': 'application/xml',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
};

/** The media type a file is served with (UTF-8 text: every file of a session is a string). */
export const contentType = (path: string) =>
  `${TYPES[extname(path).toLowerCase()] ?? 'text/plain'}; charset=utf-8`;

/** Size in bytes of UTF-8, as the limits count it. */
export const byteSize = (content: string) => Buffer.byteLength(content, 'utf8');
