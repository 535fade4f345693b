import { ConfigError, type Env } from '../config.js';
import { declareVariables, Var } from '../variables.js';

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
const AUTH = declareVariables({
  OIDC_ISSUER: Var.url({
    default: 'https://accounts.google.com',
    // Verbatim: the issuer in the provider's discovery document must match it exactly (some end in /).
    verbatim: true,
    description:
      'The OpenID provider people sign in with; its discovery document gives the endpoints',
  }),
  OIDC_CLIENT_ID: Var.string({
    description:
      'Client id at the OpenID provider. Authentication is on exactly when `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET` and `SESSION_SECRET` are all set; some but not all set stops start-up naming the missing ones',
  }),
  OIDC_CLIENT_SECRET: Var.string({ description: 'Client secret at the OpenID provider' }),
  SESSION_SECRET: Var.string({
    accepts: `at least ${MIN_SECRET_LENGTH} characters`,
    description:
      'The same in every process: signs the identity the gateway passes to services, and derives the key that encrypts delegated tokens',
  }),
  NODE_ENV: Var.string({
    description: '`production` refuses to start without authentication unless `AUTH_DISABLED=true`',
  }),
  AUTH_DISABLED: Var.bool({
    default: false,
    description: '`true` says that running in production without authentication is meant',
  }),
});
export const AUTH_VARIABLES = AUTH.variables;

/**
 * Reads the authentication variables. Some but not all of the three required ones set stops
 * start-up naming the missing ones; so does production without authentication, unless
 * AUTH_DISABLED=true says it is meant.
 */
export function authSettings(env: Env): AuthSettings {
  const values = AUTH.read(env);
  const production = values.NODE_ENV === 'production';
  const missing = REQUIRED.filter((name) => !values[name]);
  if (missing.length > 0 && missing.length < REQUIRED.length)
    throw new ConfigError(
      missing.join(', '),
      `${missing.length > 1 ? 'are' : 'is'} not set: authentication needs ${REQUIRED.join(', ')} all set (or none, to turn it off)`,
    );
  if (missing.length > 0) {
    if (production && !values.AUTH_DISABLED)
      throw new ConfigError(
        'AUTH_DISABLED',
        `must be true to run with NODE_ENV=production and no authentication (or set ${REQUIRED.join(', ')})`,
      );
    return AUTH_OFF;
  }
  const sessionSecret = values.SESSION_SECRET ?? '';
  if (sessionSecret.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      'SESSION_SECRET',
      `must be at least ${MIN_SECRET_LENGTH} characters long`,
    );
  return {
    enabled: true,
    sessionSecret,
    oidc: {
      issuer: values.OIDC_ISSUER,
      clientId: values.OIDC_CLIENT_ID ?? '',
      clientSecret: values.OIDC_CLIENT_SECRET ?? '',
    },
  };
}
