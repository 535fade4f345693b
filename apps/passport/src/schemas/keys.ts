import {
  IsoTimestamp,
  Name,
  Nullable,
  PagedQuery,
  SCOPE_FORMAT,
  Type,
  type Static,
} from '@platform/core';
import type { ApiKeyRow } from '../database.js';

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
  scopes: Type.Array(Type.String(), { description: 'What the key may do (see the README)' }),
  team: Nullable(Type.String(), {
    description: 'A team key (a service account): it acts for this catalog owner',
  }),
});
export type ApiKey = Static<typeof ApiKeySchema>;

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const toKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: iso(row.last_used_at),
  expiresAt: iso(row.expires_at),
  revokedAt: iso(row.revoked_at),
  bootstrap: row.bootstrap,
  scopes: row.scopes,
  team: row.team,
});

export const NewApiKeySchema = Type.Object({
  ...ApiKeySchema.properties,
  key: Type.String({ description: 'The key itself: shown this once, never again' }),
});

export const ApiKeyInputSchema = Type.Object({
  name: Name('key name', 'Unique among the keys not revoked, case-insensitively'),
  expiresAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the key stops working (in the future)' }),
  ),
  scopes: Type.Optional(
    Type.Array(Type.String({ pattern: SCOPE_FORMAT.source, maxLength: 40 }), {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      description:
        "What the key may do: admin, *, *:read, *:write, <service>:read, <service>:write, pulse:ingest, inference:invoke. Default [\"*\"]: whatever its creator's role allows. Never more than the creator's role; admin only from an admin; a viewer's keys only read",
    }),
  ),
  team: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Makes a team key (a service account) of a team the creator is in: it keeps working when its creator leaves, with the role its creator had',
    }),
  ),
});

export const ApiKeyListQuery = PagedQuery({});
