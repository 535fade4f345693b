import { Name, Nullable, Stamps, stamps, Type, type Static } from '@platform/core';
import { Owned, Team } from './owner.js';
import type { ProviderRow } from '../database.js';

export const PROVIDER_TYPES = ['github', 'local'] as const;

export const ProviderInputSchema = Type.Object({
  name: Name('Provider name'),
  type: Type.Union(
    PROVIDER_TYPES.map((t) => Type.Literal(t)),
    { description: 'github (GitHub or GitHub Enterprise) or local (kept by the platform)' },
  ),
  passportProviderId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The identity service provider (id or name) whose delegated tokens act on GitHub; required for github',
    }),
  ),
  baseUrl: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'github only: the REST API root (GitHub Enterprise: https://<host>/api/v3); default https://api.github.com',
    }),
  ),
  team: Type.Optional(Team),
});

export const ProviderSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  passportProviderId: Nullable(Type.String()),
  baseUrl: Nullable(Type.String()),
  ...Owned,
  ...Stamps,
});
export type Provider = Static<typeof ProviderSchema>;

export const toProvider = (row: ProviderRow): Provider => ({
  id: row.id,
  name: row.name,
  type: row.type,
  passportProviderId: row.passport_provider_id,
  baseUrl: row.base_url,
  createdBy: row.created_by,
  team: row.team,
  ...stamps(row.created_at, row.updated_at),
});
