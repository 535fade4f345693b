import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { newId } from '@platform/core';

// API keys: `plk_` + 32 random base62 characters + the CRC32 of the random part in 6 base62
// characters. The checksum lets a malformed or mistyped key be refused without a database read
// (and lets secret scanners recognise a real one); only the SHA-256 is stored.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'plk_';
const KEY_FORMAT = /^plk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export function base62(value: number, width: number): string {
  let out = '';
  for (let n = value; n > 0; n = Math.floor(n / 62)) out = ALPHABET[n % 62] + out;
  return out.padStart(width, '0');
}

export const checksum = (random: string) => base62(crc32(random), 6);

/** A fresh key, to be shown once. */
export function newApiKey(): string {
  const random = newId(32);
  return `${KEY_PREFIX}${random}${checksum(random)}`;
}

/** The key's random part when it has the format and a matching checksum; undefined otherwise. */
export function parseApiKey(key: string): string | undefined {
  const match = KEY_FORMAT.exec(key);
  if (!match || checksum(match[1]) !== match[2]) return undefined;
  return match[1];
}

/** What a list shows of a key: `plk_` and its first 4 random characters. */
export const keyPrefix = (key: string) => key.slice(0, KEY_PREFIX.length + 4);

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A session token: 32 random bytes, base64url (43 characters). */
export const newSessionToken = () => randomBytes(32).toString('base64url');
export const isSessionToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
