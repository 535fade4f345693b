import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A 32-byte key for one purpose, derived from a secret (HKDF-SHA256): the same secret gives each
 * purpose its own key, so a key leaked from one use opens nothing else.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'platform', purpose, 32));
}

const VERSION = 'v1';

/** AES-256-GCM: `v1.<base64url of iv, tag and ciphertext>`; tampering makes decryption fail. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
}

/** The plaintext of `encryptSecret`; throws when the key is not the one used or the text was altered. */
export function decryptSecret(key: Buffer, ciphertext: string): string {
  const [version, payload] = ciphertext.split('.');
  if (version !== VERSION || !payload) throw new Error('Not an encrypted secret of this platform');
  const raw = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
