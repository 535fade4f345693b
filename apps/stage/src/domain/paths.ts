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

/** Media types of text: served with `charset=utf-8`. */
const TEXT_TYPES: Record<string, string> = {
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
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown',
  '.xml': 'application/xml',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
};

/** Media types of bytes (images, fonts, media, documents): served as they are. */
const BINARY_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.flac': 'audio/flac',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

/**
 * The media type a file is served with: text types with `charset=utf-8`; by extension, else
 * text/plain for text and application/octet-stream for bytes (`binary`). Never a script type for
 * what is not a script.
 */
export function contentType(path: string, binary = false): string {
  const ext = extname(path).toLowerCase();
  const text = TEXT_TYPES[ext];
  if (text) return `${text}; charset=utf-8`;
  return BINARY_TYPES[ext] ?? (binary ? 'application/octet-stream' : 'text/plain; charset=utf-8');
}

/** Whether files with this path's extension are bytes by nature (images, fonts, media...). */
export const isBinaryType = (path: string) =>
  Object.hasOwn(BINARY_TYPES, extname(path).toLowerCase());

/** Size in bytes of UTF-8, as the limits count it. */
export const byteSize = (content: string) => Buffer.byteLength(content, 'utf8');
