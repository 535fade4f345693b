import { declareVariables, Var, type Env } from '@platform/core';
import { parseApiKey } from './domain/keys.js';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Passport's own variables (the authentication ones are libs/core's AUTH_VARIABLES). */
const VARIABLES = declareVariables({
  AUTH_ALLOWED_DOMAINS: Var.list({
    lower: true,
    documentedDefault: 'unset (any)',
    accepts: 'comma-separated domains',
    check: (domains) => {
      const bad = domains.find((domain) => !DOMAIN.test(domain));
      return bad && `has "${bad}", which is not a domain`;
    },
    description:
      'Identity: email domains allowed to sign in (example.com,example.org); others get 403 and no session',
  }),
  AUTH_ADMINS: Var.list({
    lower: true,
    accepts: 'comma-separated emails',
    check: (emails) => {
      const bad = emails.find((email) => !/^[^\s@]+@[^\s@]+$/.test(email));
      return bad && `has "${bad}", which is not an email address`;
    },
    description:
      'Identity: the administrators: always admins (see Access), whatever role is set for them; the platform configuration is theirs. With authentication off everyone may do everything',
  }),
  AUTH_ADMIN_GROUPS: Var.list({
    accepts: 'comma-separated groups',
    description:
      'Identity: values of the OpenID `groups` claim whose members are admins (compared without case)',
  }),
  AUTH_DEFAULT_ROLE: Var.string({
    default: 'member',
    accepts: '`member` or `viewer`',
    check: (role) =>
      role === 'member' || role === 'viewer'
        ? undefined
        : `must be member or viewer, got "${role}"`,
    description:
      'Identity: the role of everyone else until an admin sets theirs (`PUT /api/v1/passport/users/:email/role`): `member` reads and writes, `viewer` only reads',
  }),
  PLATFORM_API_KEY: Var.string({
    accepts: '`plk_...`',
    check: (key) =>
      parseApiKey(key)
        ? undefined
        : 'is not a platform API key (plk_ + 32 letters or digits + a 6-character checksum); make one with `node apps/passport/dist/new-key.js`',
    description:
      'Identity: a bootstrap API key for CI and the CLI (`npm run new-key -w apps/passport` prints one), stored hashed; changing or unsetting it revokes the previous one',
  }),
  PUBLIC_URL: Var.url({
    documentedDefault: "the request's origin",
    accepts: 'an http(s) origin',
    check: (url) => {
      if (!/^https?:/.test(url)) return `must be an http(s) URL, got "${url}"`;
      if (new URL(url).pathname !== '/') return `must be an origin without a path, got "${url}"`;
      return undefined;
    },
    description:
      'Identity: the origin sign-in redirect URIs are built on; an https one makes the cookies Secure',
  }),
  SESSION_MAX_AGE_MS: Var.int({
    default: 7 * 24 * 3600 * 1000,
    min: 60_000,
    max: 365 * 24 * 3600 * 1000,
    unit: 'ms',
    description: 'Identity: how long a session lasts after sign-in',
  }),
  OIDC_SCOPES: Var.list({
    default: ['openid', 'email', 'profile'],
    separator: ' ',
    check: (scopes) =>
      scopes.includes('openid') ? undefined : `must include openid, got "${scopes.join(' ')}"`,
    description: 'Identity: the scopes asked at sign-in (must include `openid`)',
  }),
});

export const PASSPORT_VARIABLES = VARIABLES.variables;

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

export function passportConfig(env: Env): PassportConfig {
  const values = VARIABLES.read(env);
  return {
    allowedDomains: values.AUTH_ALLOWED_DOMAINS,
    admins: values.AUTH_ADMINS,
    adminGroups: values.AUTH_ADMIN_GROUPS,
    // Checked by its declaration.
    defaultRole: values.AUTH_DEFAULT_ROLE as PassportConfig['defaultRole'],
    bootstrapKey: values.PLATFORM_API_KEY,
    publicUrl: values.PUBLIC_URL,
    sessionMaxAgeMs: values.SESSION_MAX_AGE_MS,
    scopes: values.OIDC_SCOPES,
    env,
  };
}
