import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import type { SessionRow } from '../database.js';

export const SessionSchema = Type.Object({
  id: Type.String({ description: '8 random characters' }),
  email: Type.String(),
  name: Type.String(),
  subject: Type.String({ description: "The user's id at the identity provider (sub)" }),
  createdAt: IsoTimestamp,
  expiresAt: IsoTimestamp,
  lastSeenAt: IsoTimestamp,
  revokedAt: Nullable(IsoTimestamp),
  active: Type.Boolean({ description: 'Neither revoked nor expired' }),
});
export type Session = Static<typeof SessionSchema>;

export const toSession = (row: SessionRow, now = Date.now()): Session => ({
  id: row.id,
  email: row.email,
  name: row.name,
  subject: row.subject,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  lastSeenAt: row.last_seen_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
  active: row.revoked_at === null && row.expires_at.getTime() > now,
});

export const SessionListQuery = PagedQuery({
  email: Type.Optional(
    Type.String({ minLength: 1, maxLength: 320, description: 'Only this user (any case)' }),
  ),
  active: Type.Optional(
    Type.Boolean({ description: 'true: only live sessions; false: only ended ones' }),
  ),
});

export const SessionParams = Type.Object({ id: Type.String({ description: 'Session id' }) });
