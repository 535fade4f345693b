import { decryptSecret, deriveKey, encryptSecret, type AuthSettings } from '@platform/core';

/**
 * Encrypts what passport keeps of others' secrets (delegated tokens, a sign-in's nonce and PKCE
 * verifier) under a key derived from SESSION_SECRET; null when authentication is off.
 */
export function tokenVault(auth: AuthSettings) {
  if (!auth.sessionSecret) return null;
  const key = deriveKey(auth.sessionSecret, 'passport tokens');
  return {
    seal: (plaintext: string) => encryptSecret(key, plaintext),
    open: (ciphertext: string) => decryptSecret(key, ciphertext),
  };
}

export type Vault = NonNullable<ReturnType<typeof tokenVault>>;
