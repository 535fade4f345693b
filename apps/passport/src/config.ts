import { ConfigError, envInt, envString, envUrl, type Env } from '@platform/core';
import { parseApiKey } from './auth/keys.js';

/** Passport's own variables (the authentication ones are libs/core's AUTH_VARIABLES). */
export const PASSPORT_VARIABLES = [
  {
    name: 'AUTH_ALLOWED_DOMAINS',
    default: 'unset (any domain)',
    description:
      'Comma-separated email domains allowed to sign in (example.com,example.org); others get 403',
  },
  {
    name: 'AUTH_ADMINS',
    default: 'unset (no user is an admin)',
    description:
      'Comma-separated emails of the administrators (ada@example.com,grace@example.com): always admins, whatever role is set for them; the platform configuration (flags, providers, channels, retention, roles) is theirs',
  },
  {
    name: 'AUTH_ADMIN_GROUPS',
    default: 'unset',
    description:
      'Comma-separated values of the OpenID `groups` claim whose members are admins (platform-admins)',
  },
  {
    name: 'AUTH_DEFAULT_ROLE',
    default: 'member',
    description:
      'The role of everyone else until an admin sets theirs (PUT /api/v1/passport/users/:email/role): member (reads and writes) or viewer (reads only)',
  },
  {
    name: 'PLATFORM_API_KEY',
    default: 'unset',
    description:
      'A bootstrap API key (plk_..., made by `node apps/passport/dist/new-key.js`) seeded hashed at start-up for CI and the CLI; changing or unsetting it revokes the previous one',
  },
  {
    name: 'PUBLIC_URL',
    default: "the request's own origin",
    description:
      'Base URL people reach the platform at (https://platform.example.com): redirect URIs are built on it, and an https one makes the session cookie Secure',
  },
  {
    name: 'SESSION_MAX_AGE_MS',
    default: '604800000 (7 days)',
    description: 'How long a session lasts after sign-in (60000 to 31536000000)',
  },
  {
    name: 'OIDC_SCOPES',
    default: 'openid email profile',
    description: 'Scopes asked at sign-in (must include openid)',
  },
] as const;

export interface PassportConfig {
  allowedDomains: string[];
  /** AUTH_ADMINS, lowercased. */
  admins: string[];
  /** AUTH_ADMIN_GROUPS, as the claim spells them (compared without case). */
  adminGroups: string[];
  /** AUTH_DEFAULT_ROLE. */
  defaultRole: 'member' | 'viewer';
  bootstrapKey: string | undefined;
  publicUrl: string | undefined;
  sessionMaxAgeMs: number;
  scopes: string[];
  /** Where `env:OAUTH_<NAME>` references of provider secrets are read. */
  env: Env;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function passportConfig(env: Env): PassportConfig {
  const allowedDomains = (envString(env, 'AUTH_ALLOWED_DOMAINS') ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== '');
  const badDomain = allowedDomains.find((domain) => !DOMAIN.test(domain));
  if (badDomain)
    throw new ConfigError('AUTH_ALLOWED_DOMAINS', `has "${badDomain}", which is not a domain`);

  const admins = (envString(env, 'AUTH_ADMINS') ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  const badAdmin = admins.find((email) => !/^[^\s@]+@[^\s@]+$/.test(email));
  if (badAdmin)
    throw new ConfigError('AUTH_ADMINS', `has "${badAdmin}", which is not an email address`);

  const adminGroups = (envString(env, 'AUTH_ADMIN_GROUPS') ?? '')
    .split(',')
    .map((group) => group.trim())
    .filter((group) => group !== '');
  const defaultRole = envString(env, 'AUTH_DEFAULT_ROLE', 'member');
  if (defaultRole !== 'member' && defaultRole !== 'viewer')
    throw new ConfigError('AUTH_DEFAULT_ROLE', `must be member or viewer, got "${defaultRole}"`);

  const bootstrapKey = envString(env, 'PLATFORM_API_KEY');
  if (bootstrapKey && !parseApiKey(bootstrapKey))
    throw new ConfigError(
      'PLATFORM_API_KEY',
      'is not a platform API key (plk_ + 32 letters or digits + a 6-character checksum); make one with `node apps/passport/dist/new-key.js`',
    );

  const publicUrl = envUrl(env, 'PUBLIC_URL');
  if (publicUrl && !/^https?:/.test(publicUrl))
    throw new ConfigError('PUBLIC_URL', `must be an http(s) URL, got "${publicUrl}"`);
  if (publicUrl && new URL(publicUrl).pathname !== '/')
    throw new ConfigError('PUBLIC_URL', `must be an origin without a path, got "${publicUrl}"`);

  const scopes = envString(env, 'OIDC_SCOPES', 'openid email profile').split(/\s+/);
  if (!scopes.includes('openid'))
    throw new ConfigError('OIDC_SCOPES', `must include openid, got "${scopes.join(' ')}"`);

  return {
    allowedDomains,
    admins,
    adminGroups,
    defaultRole,
    bootstrapKey,
    publicUrl,
    sessionMaxAgeMs: envInt(env, 'SESSION_MAX_AGE_MS', 7 * 24 * 3600 * 1000, {
      min: 60_000,
      max: 365 * 24 * 3600 * 1000,
    }),
    scopes,
    env,
  };
}
