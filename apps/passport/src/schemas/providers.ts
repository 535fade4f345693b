import {
  IsoTimestamp,
  Name,
  Nullable,
  PagedQuery,
  StampsAt,
  stampsAt,
  Type,
  type Static,
} from '@platform/core';
import type { ProviderRow } from '../database.js';
import { SIGNIN } from '../domain/delegation.js';
import type { ConnectionListRow } from '../repositories/connections.js';

export const PROVIDER_TYPES = ['github', 'google', 'oauth2'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2000, description });
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$' }), {
  maxItems: 50,
  description: 'Scopes asked when a user connects',
});

export const ProviderSchema = Type.Object({
  id: Type.String({ description: '8 random characters' }),
  name: Type.String(),
  type: Type.Enum([...PROVIDER_TYPES]),
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'The env:OAUTH_<NAME> reference (never the secret)' }),
  authorizeUrl: Type.String(),
  tokenUrl: Type.String(),
  scopes: Type.Array(Type.String()),
  ...StampsAt,
});
export type Provider = Static<typeof ProviderSchema>;

export const toProvider = (row: ProviderRow): Provider => ({
  id: row.id,
  name: row.name,
  type: row.type,
  clientId: row.client_id,
  clientSecret: row.client_secret,
  authorizeUrl: row.authorize_url,
  tokenUrl: row.token_url,
  scopes: row.scopes,
  ...stampsAt(row.created_at, row.updated_at),
});

export const ProviderInputSchema = Type.Object({
  name: Name('provider name', 'Unique case-insensitively; `signin` is reserved'),
  type: Type.Enum([...PROVIDER_TYPES], {
    description: 'github and google have fixed endpoints; oauth2 needs both URLs',
  }),
  clientId: Type.String({ minLength: 1, maxLength: 500 }),
  clientSecret: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "env:OAUTH_<NAME>: the variable holding only this provider's secret (anything else is refused)",
  }),
  authorizeUrl: Type.Optional(Url('Authorization endpoint (https): type oauth2 only')),
  tokenUrl: Type.Optional(Url('Token endpoint (https): type oauth2 only')),
  scopes: Type.Optional(Scopes),
});

export const ProviderListQuery = PagedQuery({});

export const ConnectQuery = Type.Object({
  returnTo: Type.Optional(
    Type.String({ maxLength: 2000, description: 'A path of this origin to go back to' }),
  ),
});

export const ConnectionSchema = Type.Object({
  provider: Type.String({ description: 'The provider id, or signin' }),
  providerName: Type.String(),
  scopes: Type.Array(Type.String()),
  expiresAt: Nullable(IsoTimestamp),
  refreshable: Type.Boolean({ description: 'Whether a refresh token is kept' }),
  ...StampsAt,
});

export type Connection = Static<typeof ConnectionSchema>;

export const toConnection = (row: ConnectionListRow): Connection => ({
  provider: row.provider,
  providerName: row.provider === SIGNIN ? SIGNIN : (row.provider_name ?? row.provider),
  scopes: row.scopes,
  expiresAt: row.expires_at?.toISOString() ?? null,
  refreshable: row.refreshable,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const ConnectionParams = Type.Object({
  provider: Type.String({ minLength: 1, description: 'The provider id or name, or signin' }),
});

export const TokenRequestSchema = Type.Object({
  provider: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Provider id or name, or signin',
  }),
  user: Type.String({ minLength: 1, maxLength: 320, description: "The user's email" }),
});

export const TokenSchema = Type.Object({
  accessToken: Type.String(),
  tokenType: Type.String(),
  expiresAt: Nullable(IsoTimestamp),
  scopes: Type.Array(Type.String()),
});
