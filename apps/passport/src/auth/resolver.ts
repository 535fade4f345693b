import type { CredentialResolver, Identity } from '@platform/core';
import type { PassportDb } from '../database.js';
import { findKeyByHash, touchKey } from '../repositories/keys.js';
import { findLiveSession, touchSession } from '../repositories/sessions.js';
import { isSessionToken, parseApiKey, sameHash, sha256 } from './keys.js';

const MINUTE = 60_000;

/**
 * Checks an API key or a session token against passport's tables: one indexed read; a write only
 * when the key's or session's last use is over a minute old. Null for anything malformed (no
 * read at all), unknown, expired or revoked. The gateway calls it for every request carrying
 * credentials; a standalone passport, for its own.
 */
export function credentialResolver(db: PassportDb): CredentialResolver {
  return async ({ apiKey, sessionToken }): Promise<Identity | null> => {
    if (apiKey !== undefined) {
      if (!parseApiKey(apiKey)) return null;
      const hash = sha256(apiKey);
      const key = await findKeyByHash(db, hash);
      if (!key || !sameHash(key.key_hash, hash) || key.revoked_at) return null;
      const now = Date.now();
      if (key.expires_at && key.expires_at.getTime() <= now) return null;
      if (!key.last_used_at || now - key.last_used_at.getTime() > MINUTE)
        await touchKey(db, key.id);
      return { kind: 'key', keyId: key.id, name: key.name };
    }
    if (sessionToken !== undefined) {
      if (!isSessionToken(sessionToken)) return null;
      const hash = sha256(sessionToken);
      const session = await findLiveSession(db, hash);
      if (!session || !sameHash(session.token_hash, hash)) return null;
      if (Date.now() - session.last_seen_at.getTime() > MINUTE) await touchSession(db, session.id);
      return { kind: 'user', email: session.email, name: session.name, sessionId: session.id };
    }
    return null;
  };
}
