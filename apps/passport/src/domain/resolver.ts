import type { CredentialResolver, Identity } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import type { PassportConfig } from '../config.js';
import type { PassportDb } from '../database.js';
import { roleOfPerson } from './permissions.js';
import { REVOCATIONS } from '../repositories/credentials.js';
import { findKeyByHash, touchKey } from '../repositories/keys.js';
import { findLiveSession, touchSession } from '../repositories/sessions.js';
import { isSessionToken, parseApiKey, sameHash, sha256 } from './keys.js';

const MINUTE = 60_000;
/** How long a checked credential is believed without a read (a safety net behind the notices). */
const CACHE_MS = 30_000;
const CACHE_SIZE = 10_000;

/** The caches of this process's resolvers (the gateway's, a standalone passport's). */
const caches = new Set<Map<string, { identity: Identity; until: number }>>();

/**
 * Forgets every credential this process's resolvers believed: called once a revocation has
 * committed (the other processes hear it through announceRevocation's notice).
 */
export function forgetCredentials() {
  for (const cache of caches) cache.clear();
}

/**
 * Checks an API key or a session token against passport's tables: one indexed read, then none
 * for up to 30 s (or until the credential expires) unless a revocation is announced meanwhile; a
 * write only when the key's or session's last use is over a minute old. Null for anything
 * malformed (no read at all), unknown, expired or revoked. The gateway calls it for every request
 * carrying credentials; a standalone passport, for its own.
 */
export function credentialResolver(
  db: PassportDb,
  database: PlatformDatabase | undefined,
  config: PassportConfig,
): CredentialResolver {
  const cache = new Map<string, { identity: Identity; until: number }>();
  caches.add(cache);
  // Believed without a read only while this process hears revocations (a lost connection says
  // that some may have been missed: everything is forgotten then too).
  let listening: Promise<boolean> | undefined;
  const hears = () =>
    (listening ??= database
      ? database
          .listen(REVOCATIONS, () => cache.clear())
          .then(
            () => true,
            () => false,
          )
      : Promise.resolve(false));
  const remember = async (hash: string, identity: Identity, expires: Date | null) => {
    if (!(await hears())) return;
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    const until = Math.min(Date.now() + CACHE_MS, expires?.getTime() ?? Infinity);
    cache.set(hash, { identity, until });
  };
  const cached = (hash: string) => {
    const hit = cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.identity;
    if (hit) cache.delete(hash);
    return undefined;
  };

  return async ({ apiKey, sessionToken }): Promise<Identity | null> => {
    if (apiKey !== undefined) {
      if (!parseApiKey(apiKey)) return null;
      const hash = sha256(apiKey);
      const hit = cached(hash);
      if (hit) return hit;
      const key = await findKeyByHash(db, hash);
      if (!key || !sameHash(key.key_hash, hash) || key.revoked_at) return null;
      const now = Date.now();
      if (key.expires_at && key.expires_at.getTime() <= now) return null;
      if (!key.last_used_at || now - key.last_used_at.getTime() > MINUTE)
        await touchKey(db, key.id);
      const identity: Identity = {
        kind: 'key',
        keyId: key.id,
        name: key.name,
        role: key.bootstrap
          ? 'admin'
          : (key.fixed_role ??
            (await roleOfPerson(db, config, key.created_by ?? '', key.creator_groups))),
        scopes: key.bootstrap ? ['admin'] : key.scopes,
        owner: key.bootstrap || key.team || key.fixed_role ? null : key.created_by,
        team: key.team,
      };
      await remember(hash, identity, key.expires_at);
      return identity;
    }
    if (sessionToken !== undefined) {
      if (!isSessionToken(sessionToken)) return null;
      const hash = sha256(sessionToken);
      const hit = cached(hash);
      if (hit) return hit;
      const session = await findLiveSession(db, hash);
      if (!session || !sameHash(session.token_hash, hash)) return null;
      if (Date.now() - session.last_seen_at.getTime() > MINUTE) await touchSession(db, session.id);
      const identity: Identity = {
        kind: 'user',
        email: session.email,
        name: session.name,
        sessionId: session.id,
        role: await roleOfPerson(db, config, session.email, session.groups),
        groups: session.groups,
      };
      await remember(hash, identity, session.expires_at);
      return identity;
    }
    return null;
  };
}
