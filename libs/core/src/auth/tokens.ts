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

/**
 * A short-lived token of this platform for one purpose and one audience (a sign-in hand-off to an
 * app's origin, a visitor's session there): HS256 under a key derived for that purpose, so a token
 * of one kind is never taken for another.
 */
export function signToken(
  secret: string,
  purpose: string,
  audience: string,
  claims: Record<string, unknown>,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(deriveKey(secret, purpose));
}

/** The claims of a token `signToken` made for this purpose and audience, unexpired; else null. */
export async function verifyToken(
  secret: string,
  purpose: string,
  audience: string,
  token: string,
): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtVerify(token, deriveKey(secret, purpose), {
      issuer: ISSUER,
      audience,
      algorithms: ['HS256'],
    });
    return payload;
  } catch {
    return null;
  }
}
