import { ConfigError, envBool, envString, envUrl, type Env } from '../config.js';

/** Whether authentication is on, and what it needs: read once at start-up by every process. */
export interface AuthSettings {
  enabled: boolean;
  /** SESSION_SECRET: signs identities passed between services, derives encryption keys. */
  sessionSecret?: string;
  /** The OpenID provider the identity service signs people in with. */
  oidc?: { issuer: string; clientId: string; clientSecret: string };
}

export const AUTH_OFF: AuthSettings = Object.freeze({ enabled: false });

const REQUIRED = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'SESSION_SECRET'] as const;
const MIN_SECRET_LENGTH = 32;

/** The variables of authentication, read by the gateway and every standalone service. */
export const AUTH_VARIABLES = [
  {
    name: 'OIDC_ISSUER',
    default: 'https://accounts.google.com',
    description: 'The OpenID provider people sign in with (endpoints from its discovery document)',
  },
  {
    name: 'OIDC_CLIENT_ID',
    default: 'unset',
    description:
      'Client id at the OpenID provider. Authentication is on exactly when OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and SESSION_SECRET are all set',
  },
  {
    name: 'OIDC_CLIENT_SECRET',
    default: 'unset',
    description: 'Client secret at the OpenID provider',
  },
  {
    name: 'SESSION_SECRET',
    default: 'unset',
    description: `At least ${MIN_SECRET_LENGTH} characters, the same in every process: signs the identity the gateway passes to services and derives the key that encrypts delegated tokens`,
  },
  {
    name: 'NODE_ENV',
    default: 'unset',
    description:
      'production: start-up refuses to run without authentication unless AUTH_DISABLED=true',
  },
  {
    name: 'AUTH_DISABLED',
    default: 'false',
    description:
      'With NODE_ENV=production, start-up refuses to run without authentication unless this is true',
  },
] as const;

/**
 * Reads the authentication variables. Some but not all of the three required ones set stops
 * start-up naming the missing ones; so does production without authentication, unless
 * AUTH_DISABLED=true says it is meant.
 */
export function authSettings(env: Env): AuthSettings {
  // Verbatim: the issuer in the provider's discovery document must match it exactly (some end in /).
  const issuer = envUrl(env, 'OIDC_ISSUER') && envString(env, 'OIDC_ISSUER', '');

  const production = envString(env, 'NODE_ENV') === 'production';
  const disabled = envBool(env, 'AUTH_DISABLED', false);
  const missing = REQUIRED.filter((name) => !envString(env, name));
  if (missing.length > 0 && missing.length < REQUIRED.length)
    throw new ConfigError(
      missing.join(', '),
      `${missing.length > 1 ? 'are' : 'is'} not set: authentication needs ${REQUIRED.join(', ')} all set (or none, to turn it off)`,
    );
  if (missing.length > 0) {
    if (production && !disabled)
      throw new ConfigError(
        'AUTH_DISABLED',
        `must be true to run with NODE_ENV=production and no authentication (or set ${REQUIRED.join(', ')})`,
      );
    return AUTH_OFF;
  }
  const sessionSecret = envString(env, 'SESSION_SECRET', '');
  if (sessionSecret.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      'SESSION_SECRET',
      `must be at least ${MIN_SECRET_LENGTH} characters long`,
    );
  return {
    enabled: true,
    sessionSecret,
    oidc: {
      issuer: issuer || 'https://accounts.google.com',
      clientId: envString(env, 'OIDC_CLIENT_ID', ''),
      clientSecret: envString(env, 'OIDC_CLIENT_SECRET', ''),
    },
  };
}
