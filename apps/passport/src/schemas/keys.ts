import { IsoTimestamp, Name, Nullable, PagedQuery, Type, type Static } from '@platform/core';

export const ApiKeySchema = Type.Object({
  id: Type.String({ description: '8 random characters' }),
  name: Type.String(),
  prefix: Type.String({ description: 'plk_ and the first 4 characters: recognises the key' }),
  createdBy: Nullable(Type.String(), { description: 'Who made it: an email, key:<name>, or null' }),
  createdAt: IsoTimestamp,
  lastUsedAt: Nullable(IsoTimestamp),
  expiresAt: Nullable(IsoTimestamp),
  revokedAt: Nullable(IsoTimestamp),
  bootstrap: Type.Boolean({ description: 'The key PLATFORM_API_KEY names' }),
});
export type ApiKey = Static<typeof ApiKeySchema>;

export const NewApiKeySchema = Type.Object({
  ...ApiKeySchema.properties,
  key: Type.String({ description: 'The key itself: shown this once, never again' }),
});

export const ApiKeyInputSchema = Type.Object({
  name: Name('key name', 'Unique among the keys not revoked, case-insensitively'),
  expiresAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the key stops working (in the future)' }),
  ),
});

export const ApiKeyListQuery = PagedQuery({});
