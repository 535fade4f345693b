import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// 62 * 4 = 248: bytes at or above it are dropped so that every character is equally likely.
const LIMIT = 248;

/** A random id of `length` characters from [A-Za-z0-9], from the CSPRNG, with an optional prefix. */
export function newId(length = 8, prefix = ''): string {
  let id = prefix;
  while (id.length < prefix.length + length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < LIMIT) id += ALPHABET[byte % ALPHABET.length];
      if (id.length === prefix.length + length) break;
    }
  }
  return id;
}
