import { ApiError, type Role } from '@platform/core';
import type { PassportConfig } from '../config.js';
import type { PassportDb } from '../database.js';
import { roleSetFor } from '../repositories/users.js';

/** An email as AUTH_ADMINS and `created_by` compare it. */
export const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether the variables make this person an admin (AUTH_ADMINS, AUTH_ADMIN_GROUPS). */
export function adminByConfig(config: PassportConfig, email: string, groups: readonly string[]) {
  if (config.admins.includes(email.toLowerCase())) return true;
  const wanted = new Set(config.adminGroups.map((group) => group.toLowerCase()));
  return groups.some((group) => wanted.has(group.toLowerCase()));
}

/**
 * A person's role now: admin by the variables (never less), else the role an admin set, else
 * AUTH_DEFAULT_ROLE. One indexed read.
 */
export async function roleOfPerson(
  db: PassportDb,
  config: PassportConfig,
  email: string,
  groups: readonly string[],
): Promise<Role> {
  if (adminByConfig(config, email, groups)) return 'admin';
  return (await roleSetFor(db, email)) ?? config.defaultRole;
}

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };
/** The lower of two roles: a key never exceeds its creator. */
export const lowerRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
