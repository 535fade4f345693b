import { ApiError, conflict, notFound } from '@platform/core';
import type { PassportConfig } from '../config.js';
import type { ConnectionRow, PassportDb, ProviderRow } from '../database.js';
import { findConnection, upsertConnection } from '../repositories/connections.js';
import { findProvider } from '../repositories/providers.js';
import { sealedTokens } from './claims.js';
import { client, grantError, oauth2Provider, signInProvider } from './oidc.js';
import type { Vault } from './vault.js';
import type { AuthSettings } from '@platform/core';

export const SIGNIN = 'signin';
/**
 * A provider's clientSecret: env:OAUTH_<NAME>. The prefix keeps a provider's secret apart from
 * the platform's own variables: a reference to SESSION_SECRET (or any other) would send that
 * variable to the provider's token endpoint.
 */
export const SECRET_REFERENCE = /^env:(OAUTH_[A-Z0-9_]+)$/;
export const SECRET_REFERENCE_RULE =
  "clientSecret must be env:OAUTH_<NAME>, a variable holding only this provider's secret (never the secret itself, nor any other variable)";

/** The fixed endpoints of the well-known types (oauth2 providers give theirs). */
export const FIXED_ENDPOINTS: Partial<
  Record<ProviderRow['type'], { authorizeUrl: string; tokenUrl: string }>
> = {
  github: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
  },
  google: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
  },
};
/** A token this close to its expiry is refreshed before it is handed out. */
const SKEW_MS = 60_000;

/** The provider's client secret, from the variable its `env:OAUTH_<NAME>` names. */
export function clientSecretOf(provider: ProviderRow, config: PassportConfig): string {
  const variable = SECRET_REFERENCE.exec(provider.client_secret)?.[1];
  if (!variable)
    throw new ApiError(
      'NOT_CONFIGURED',
      `Provider ${provider.name}: ${SECRET_REFERENCE_RULE}; register it again`,
    );
  const secret = config.env[variable];
  if (!secret)
    throw new ApiError(
      'NOT_CONFIGURED',
      `Provider ${provider.name}: the variable ${variable} named by its clientSecret is not set`,
    );
  return secret;
}

export const providerConfiguration = (provider: ProviderRow, config: PassportConfig) =>
  oauth2Provider(
    FIXED_ENDPOINTS[provider.type] ?? {
      authorizeUrl: provider.authorize_url,
      tokenUrl: provider.token_url,
    },
    provider.client_id,
    clientSecretOf(provider, config),
  );

/** Hands users' delegated tokens to the platform's services, refreshing expired ones first. */
export function delegatedTokens(
  db: PassportDb,
  config: PassportConfig,
  auth: AuthSettings,
  vault: Vault,
) {
  // One refresh at a time per connection in this process: concurrent callers share it.
  const refreshing = new Map<string, Promise<ConnectionRow>>();

  async function configurationOf(provider: string) {
    if (provider === SIGNIN) {
      if (!auth.oidc) throw notFound('Provider', SIGNIN);
      return signInProvider(auth.oidc)();
    }
    const row = await findProvider(db, provider);
    return providerConfiguration(row, config);
  }

  async function refresh(connection: ConnectionRow, label: string): Promise<ConnectionRow> {
    if (!connection.refresh_token)
      throw conflict(
        `The ${label} token of ${connection.email} expired and cannot be refreshed (no refresh token); the user must connect again`,
      );
    const configuration = await configurationOf(connection.provider);
    const tokens = await client
      .refreshTokenGrant(configuration, vault.open(connection.refresh_token))
      .catch((error: unknown) => {
        const failure = grantError(error, `Refreshing the ${label} token of ${connection.email}`);
        if (failure.code !== 'UNAUTHORIZED') throw failure;
        throw conflict(`${failure.message}; the user must connect again`);
      });
    const key = { id: connection.id, provider: connection.provider, email: connection.email };
    await upsertConnection(db, key, sealedTokens(tokens, vault.seal, connection.scopes));
    const updated = await findConnection(db, connection.provider, connection.email);
    if (!updated) throw notFound('Connection', `${connection.email} at ${label}`);
    return updated;
  }

  /** A user's live access token at a provider (`signin` or a provider's id or name). */
  return async function tokenFor(providerIdOrName: string, email: string) {
    const provider =
      providerIdOrName === SIGNIN ? SIGNIN : (await findProvider(db, providerIdOrName)).id;
    let connection = await findConnection(db, provider, email);
    if (!connection) throw notFound('Connection', `${email} has not connected ${providerIdOrName}`);
    if (connection.expires_at && connection.expires_at.getTime() - SKEW_MS <= Date.now()) {
      const running = refreshing.get(connection.id) ?? refresh(connection, providerIdOrName);
      refreshing.set(connection.id, running);
      connection = await running.finally(() => refreshing.delete(connection!.id));
    }
    return {
      accessToken: vault.open(connection.access_token),
      tokenType: connection.token_type,
      expiresAt: connection.expires_at?.toISOString() ?? null,
      scopes: connection.scopes,
    };
  };
}
