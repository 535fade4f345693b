import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';

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

export const SessionListQuery = PagedQuery({
  email: Type.Optional(
    Type.String({ minLength: 1, maxLength: 320, description: 'Only this user (any case)' }),
  ),
  active: Type.Optional(
    Type.Boolean({ description: 'true: only live sessions; false: only ended ones' }),
  ),
});

export const SessionParams = Type.Object({ id: Type.String({ description: 'Session id' }) });
