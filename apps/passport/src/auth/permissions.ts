import { ApiError, type AuthSettings, type Identity } from '@platform/core';
import type { PassportConfig } from '../config.js';
import type { PassportDb } from '../database.js';
import { findKeyById } from '../repositories/keys.js';

export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

/** An email as AUTH_ADMINS and `created_by` compare it. */
export const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Whether a caller is an administrator: anyone when authentication is off, the bootstrap key
 * (PLATFORM_API_KEY), a signed-in user listed in AUTH_ADMINS, or a key such a user created (its
 * creator is read from the key's row, so removing the user from AUTH_ADMINS demotes their keys).
 */
export function adminCheck(db: PassportDb, config: PassportConfig, auth: AuthSettings) {
  const listed = (email: string | null) =>
    email !== null && config.admins.includes(email.toLowerCase());
  return async function isAdmin(identity: Identity): Promise<boolean> {
    switch (identity.kind) {
      case 'anonymous':
        return !auth.enabled;
      case 'user':
        return listed(identity.email);
      case 'key': {
        const key = await findKeyById(db, identity.keyId);
        if (!key || key.revoked_at) return false;
        return key.bootstrap || listed(key.created_by);
      }
      default:
        return false;
    }
  };
}
