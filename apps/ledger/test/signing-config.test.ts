import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, standaloneConfig } from '@platform/core';
import { ledger } from '../src/index';
import { newKey } from './signing-helpers';

const key = newKey();

describe('LEDGER_SIGNING_KEY', () => {
  const read = (value: string) => ledger.config({ LEDGER_SIGNING_KEY: value }).signingKey;

  it('takes PKCS#8 PEM (also with \\n written out) or the base64/base64url 32-byte seed', () => {
    for (const value of [key.pem, key.pem.replace(/\n/g, '\\n'), key.seedBase64, key.seedBase64url])
      expect(read(value)?.keyId).toBe(key.key.keyId);
    expect(ledger.config({}).signingKey).toBeUndefined();
    expect(ledger.config({}).signingIntervalMs).toBe(60_000);
  });

  it('stops start-up with a message naming the variable, never repeating the value', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const publicPem = key.key.publicKeyPem;
    const cases: Array<[string, string]> = [
      ['not a key at all', ''],
      [key.seedHex, ' (got 48 bytes)'],
      [Buffer.alloc(16, 7).toString('base64'), ' (got 16 bytes)'],
      [rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), ' (got a rsa key)'],
      [publicPem, ' (got a public key)'],
      [key.pem.replace(key.pemBody, key.pemBody.slice(0, 20)), ''],
    ];
    for (const [value, detail] of cases) {
      let error: unknown;
      try {
        standaloneConfig(ledger, { LEDGER_SIGNING_KEY: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `Invalid configuration: LEDGER_SIGNING_KEY must be an Ed25519 private key: PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----", as \`openssl genpkey -algorithm ed25519\` writes it) or the base64 (or base64url) of its raw 32-byte seed${detail}`,
      );
    }
    expect(() =>
      standaloneConfig(ledger, {
        LEDGER_SIGNING_KEY: key.pem,
        LEDGER_SIGNING_INTERVAL_MS: 'often',
      }),
    ).toThrow(
      'Invalid configuration: LEDGER_SIGNING_INTERVAL_MS must be an integer from 0 to 86400000, got "often"',
    );
  });
});
