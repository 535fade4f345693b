import type { Role } from '@platform/core';
import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `passport` schema, as the migrations make them. */
export interface PassportDatabase {
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  login_states: LoginStatesTable;
  providers: ProvidersTable;
  connections: ConnectionsTable;
  users: UsersTable;
}

/** A role an admin gave a person (PUT /users/:email/role); others have AUTH_DEFAULT_ROLE. */
export interface UsersTable {
  /** Lowercase. */
  email: string;
  role: Role;
  updated_by: string;
  updated_at: Generated<Date>;
}

/** A signed-in browser. Only the SHA-256 of its cookie token is kept. */
export interface SessionsTable {
  id: string;
  token_hash: string;
  email: string;
  name: string;
  subject: string;
  created_at: Generated<Date>;
  expires_at: Date;
  last_seen_at: Generated<Date>;
  revoked_at: Date | null;
  /** The OpenID `groups` claim at sign-in. */
  groups: Generated<string[]>;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** `plk_` and the first 4 characters of the random part: how a person recognises the key. */
  prefix: string;
  key_hash: string;
  created_by: string | null;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  /** The key PLATFORM_API_KEY names (seeded at start-up). */
  bootstrap: Generated<boolean>;
  /** What the key may do (libs/core's scope format); '*' for keys made before scopes. */
  scopes: Generated<string[]>;
  /** A team key (a service account): it acts for this catalog owner, not for its creator. */
  team: string | null;
  /** The creator's `groups` claim when it was made (their role may come from AUTH_ADMIN_GROUPS). */
  creator_groups: Generated<string[]>;
  /**
   * The role of a key that does not follow a person's: a team key's (it outlives the person who
   * made it) or one a key made; fixed when it was made. Null: its creator's role now.
   */
  fixed_role: Role | null;
}

/** A sign-in or a provider connection under way: single use, 10 minutes. */
export interface LoginStatesTable {
  state_hash: string;
  kind: 'signin' | 'connect';
  /** The nonce and the PKCE verifier, encrypted (AES-256-GCM). */
  secrets: string;
  redirect_uri: string;
  return_to: string;
  scopes: string[];
  /** connect: the session that started it, and the provider. */
  session_id: string | null;
  provider_id: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface ProvidersTable {
  id: string;
  name: string;
  type: 'github' | 'google' | 'oauth2';
  client_id: string;
  /** `env:VAR`: the secret itself stays in the environment. */
  client_secret: string;
  authorize_url: string;
  token_url: string;
  scopes: string[];
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A user's delegated tokens at a provider (`signin` for the sign-in provider), encrypted. */
export interface ConnectionsTable {
  id: string;
  /** A provider's id, or `signin`. */
  provider: string;
  email: string;
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  expires_at: Date | null;
  scopes: string[];
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type PassportDb = Kysely<PassportDatabase>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type LoginStateRow = Selectable<LoginStatesTable>;
export type ProviderRow = Selectable<ProvidersTable>;
export type ConnectionRow = Selectable<ConnectionsTable>;
