import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { ConfigError } from '@platform/core';

// DER of a PKCS#8 Ed25519 private key up to its 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The ledger's Ed25519 signing key (README "Signed chain heads"). The private key stays inside
 * this object: it is never serialized (`toJSON` and `inspect` show the key id only), so it cannot
 * reach a response, a log line or the database by accident.
 */
export class SigningKey {
  readonly algorithm = 'Ed25519' as const;
  /** SHA-256 (hex) of the raw 32-byte public key. */
  readonly keyId: string;
  /** The public key as PEM (SubjectPublicKeyInfo), for external verifiers. */
  readonly publicKeyPem: string;
  readonly publicKey: KeyObject;
  readonly #privateKey: KeyObject;

  constructor(privateKey: KeyObject) {
    this.#privateKey = privateKey;
    this.publicKey = createPublicKey(privateKey);
    this.publicKeyPem = this.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const raw = Buffer.from(this.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
    this.keyId = createHash('sha256').update(raw).digest('hex');
  }

  /** Runs `use` with the private key (the signer is the only caller). */
  withPrivateKey<T>(use: (key: KeyObject) => T): T {
    return use(this.#privateKey);
  }

  toJSON() {
    return { algorithm: this.algorithm, keyId: this.keyId };
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `SigningKey(${this.keyId})`;
  }
}

const PROBLEM =
  'must be an Ed25519 private key: PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----", as `openssl genpkey -algorithm ed25519` writes it) or the base64 (or base64url) of its raw 32-byte seed';

/**
 * Reads an Ed25519 private key from the value of `variable`: PKCS#8 PEM (line breaks may be
 * written as `\n`, as .env files often do) or base64/base64url of the 32-byte seed. A bad value
 * throws a ConfigError naming the variable and never repeating the value (it is a secret).
 */
export function parseSigningKey(variable: string, value: string): SigningKey {
  const text = value.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    if (/^-----BEGIN [A-Z ]*PUBLIC KEY-----/.test(text))
      throw new ConfigError(variable, `${PROBLEM} (got a public key)`);
    if (text.startsWith('-----BEGIN')) key = createPrivateKey({ key: text, format: 'pem' });
    else {
      if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new Error('not base64');
      const seed = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      if (seed.length !== 32)
        throw new ConfigError(variable, `${PROBLEM} (got ${seed.length} bytes)`);
      key = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
        format: 'der',
        type: 'pkcs8',
      });
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(variable, PROBLEM);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new ConfigError(variable, `${PROBLEM} (got a ${key.asymmetricKeyType ?? 'unknown'} key)`);
  return new SigningKey(key);
}
