import { jwtVerify, SignJWT } from 'jose';
import type { Identity } from './identity.js';
import { deriveKey } from './secrets.js';

// The identity a request carries from the gateway to a service (or from a service to another):
// a JWT signed with HS256 under a key derived from SESSION_SECRET, valid for a minute.

const ISSUER = 'platform';
const AUDIENCE = 'platform-services';
const TTL_SECONDS = 60;

const keys = new Map<string, Buffer>();
const signingKey = (secret: string) => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = deriveKey(secret, 'identity token')));
  return key;
};

export function signIdentity(secret: string, identity: Identity): Promise<string> {
  return new SignJWT({ identity })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
    .sign(signingKey(secret));
}

const KINDS = new Set(['user', 'key', 'service', 'anonymous']);

/** The identity in a token this platform signed and that has not expired; null otherwise. */
export async function verifyIdentity(secret: string, token: string): Promise<Identity | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const identity = payload.identity as Identity | undefined;
    return identity && KINDS.has(identity.kind) && identity.kind !== 'anonymous' ? identity : null;
  } catch {
    return null;
  }
}
