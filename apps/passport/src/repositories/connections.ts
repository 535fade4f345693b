import { jsonb, sql } from '@platform/db';
import type { ConnectionRow, PassportDb } from '../database.js';

/** Encrypted tokens of one user at one provider (`signin` or a provider id). */
export interface ConnectionTokens {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  expires_at: Date | null;
  scopes: string[];
}

/** Stores a user's tokens at a provider, replacing those of an earlier connection. */
export async function upsertConnection(
  db: PassportDb,
  key: { id: string; provider: string; email: string },
  tokens: ConnectionTokens,
): Promise<void> {
  const values = { ...tokens, scopes: jsonb(tokens.scopes) };
  await db
    .insertInto('connections')
    .values({ ...key, ...values })
    .onConflict((oc) =>
      oc.expression(sql`lower(email), provider`).doUpdateSet({
        ...values,
        // A refresh that brings no new refresh token keeps the old one.
        refresh_token: sql`coalesce(excluded.refresh_token, connections.refresh_token)`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

export function findConnection(
  db: PassportDb,
  provider: string,
  email: string,
): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('provider', '=', provider)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** A user's connections with their provider's name (`signin` for the sign-in provider). */
/** A connection as a person's list shows it (never a token). */
export type ConnectionListRow = Awaited<ReturnType<typeof listConnections>>[number];

export function listConnections(db: PassportDb, email: string) {
  return db
    .selectFrom('connections')
    .leftJoin('providers', 'providers.id', 'connections.provider')
    .select([
      'connections.provider',
      'providers.name as provider_name',
      'connections.scopes',
      'connections.expires_at',
      sql<boolean>`connections.refresh_token is not null`.as('refreshable'),
      'connections.created_at',
      'connections.updated_at',
    ])
    .where(sql<string>`lower(connections.email)`, '=', email.toLowerCase())
    .orderBy('connections.created_at')
    .execute();
}

export async function deleteConnection(
  db: PassportDb,
  provider: string,
  email: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('connections')
    .where('provider', '=', provider)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
