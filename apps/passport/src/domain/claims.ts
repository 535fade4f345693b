import { ApiError } from '@platform/core';
import type { PassportConfig } from '../config.js';
import { client, type Tokens } from './oidc.js';

export interface Person {
  subject: string;
  email: string;
  name: string;
  /** The `groups` claim (strings only; at most 200 kept): a group named like a catalog owner is a team. */
  groups: string[];
}

/** The `groups` claim as a list of names, whatever else the provider put there. */
const groupsOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? [...new Set(value.filter((g): g is string => typeof g === 'string' && g !== ''))].slice(
        0,
        200,
      )
    : [];

const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

/**
 * Who signed in, from the ID token's claims (the userinfo endpoint when the token lacks the
 * email). The email must be verified (`email_verified: true`), and must be in AUTH_ALLOWED_DOMAINS when set.
 */
export async function personOf(
  configuration: client.Configuration,
  tokens: Tokens,
  config: PassportConfig,
): Promise<Person> {
  const claims = tokens.claims();
  if (!claims) throw new ApiError('UNAUTHORIZED', 'The identity provider sent no ID token');
  let { email, email_verified: verified, name, groups } = claims as Record<string, unknown>;
  if (typeof email !== 'string' || email === '') {
    const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    ({ email, email_verified: verified } = info as Record<string, unknown>);
    name ??= info.name;
    groups ??= (info as Record<string, unknown>).groups;
  }
  if (typeof email !== 'string' || !email.includes('@'))
    throw forbidden(
      'The identity provider did not give an email address for this account; sign-in needs one (scope email)',
    );
  // Only an email the provider says it verified: an absent claim proves nothing.
  if (verified !== true)
    throw forbidden(`The email address ${email} is not verified at the identity provider`);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (config.allowedDomains.length > 0 && !config.allowedDomains.includes(domain))
    throw forbidden(
      `Accounts of ${domain} may not sign in here (allowed: ${config.allowedDomains.join(', ')})`,
    );
  return {
    subject: claims.sub,
    email,
    name: typeof name === 'string' && name !== '' ? name : email,
    groups: groupsOf(groups),
  };
}

/** What a token answer grants, encrypted for the connections table. */
export function sealedTokens(
  tokens: Tokens,
  seal: (plaintext: string) => string,
  askedScopes: string[],
) {
  const expiresIn = tokens.expiresIn();
  return {
    access_token: seal(tokens.access_token),
    refresh_token: tokens.refresh_token ? seal(tokens.refresh_token) : null,
    token_type: tokens.token_type ?? 'bearer',
    expires_at: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
    scopes: tokens.scope ? tokens.scope.split(/[\s,]+/).filter(Boolean) : askedScopes,
  };
}

/** Scopes a query gives, space- or comma-separated, without repeats. */
export const scopeList = (value: string | undefined) => [
  ...new Set((value ?? '').split(/[\s,]+/).filter((scope) => scope !== '')),
];
