import * as client from 'openid-client';
import { ApiError, badGateway } from '@platform/core';

/** A loopback http URL (tests, local IdPs): the only place plain http is allowed. */
export function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname);
}

/** https, or http on loopback; anything else is refused with the field's name. */
export function checkEndpoint(url: string, field: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${field} must be an absolute URL`;
  }
  if (parsed.protocol === 'https:' || isLoopbackHttp(url)) return undefined;
  return `${field} must be an https URL (http only on localhost)`;
}

const TIMEOUT_SECONDS = 15;

const insecure = (url: string) =>
  isLoopbackHttp(url) ? { execute: [client.allowInsecureRequests] } : {};

const discovered = new Map<string, () => Promise<client.Configuration>>();

/**
 * The sign-in provider's configuration, from its discovery document, fetched on first use and
 * kept (one per issuer and client); a failed discovery is tried again on the next use.
 */
export function signInProvider(oidc: { issuer: string; clientId: string; clientSecret: string }) {
  const id = `${oidc.issuer} ${oidc.clientId} ${oidc.clientSecret}`;
  const known = discovered.get(id);
  if (known) return known;
  let pending: Promise<client.Configuration> | undefined;
  const get = (): Promise<client.Configuration> => {
    pending ??= client
      .discovery(new URL(oidc.issuer), oidc.clientId, oidc.clientSecret, undefined, {
        ...insecure(oidc.issuer),
        timeout: TIMEOUT_SECONDS,
      })
      .catch((error: unknown) => {
        pending = undefined;
        throw badGateway(
          `The identity provider ${oidc.issuer} could not be reached for its discovery document: ${(error as Error).message}`,
          error,
        );
      });
    return pending;
  };
  discovered.set(id, get);
  return get;
}

/** A plain OAuth 2 provider (GitHub, Google, any other) from its two endpoints. */
export function oauth2Provider(
  endpoints: { authorizeUrl: string; tokenUrl: string },
  clientId: string,
  clientSecret: string,
): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: new URL(endpoints.authorizeUrl).origin,
      authorization_endpoint: endpoints.authorizeUrl,
      token_endpoint: endpoints.tokenUrl,
    },
    clientId,
    clientSecret,
  );
  if (isLoopbackHttp(endpoints.tokenUrl) || isLoopbackHttp(endpoints.authorizeUrl))
    client.allowInsecureRequests(config);
  config.timeout = TIMEOUT_SECONDS;
  return config;
}

// Failed checks of the provider's answer (nonce, state, issuer, audience, expiry, signature).
const VERIFICATION = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_KEY_SELECTION_FAILED',
]);

/**
 * An error of the authorization server, or of checking its answer, as the envelope says it: the
 * server's refusal (invalid_grant: a code used twice or expired) and a failed check (nonce, state,
 * signature) are 401; a server that cannot be reached or answers nonsense is 502.
 */
export function grantError(error: unknown, what: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof client.ResponseBodyError && error.status < 500)
    return new ApiError(
      'UNAUTHORIZED',
      `${what} refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
    );
  if (error instanceof client.AuthorizationResponseError)
    return new ApiError('UNAUTHORIZED', `${what} refused: ${error.error}`);
  const { code, message } = error as { code?: string; message: string };
  if (code && VERIFICATION.has(code)) {
    // openid-client's message is generic; the one it wraps names the claim (never its values).
    const inner = (error as { cause?: { message?: unknown } }).cause?.message;
    const which = typeof inner === 'string' && inner !== message ? ` (${inner})` : '';
    return new ApiError('UNAUTHORIZED', `${what} failed verification: ${message}${which}`);
  }
  return badGateway(
    `${what}: the provider could not be reached or answered badly (${message})`,
    error,
  );
}

export type Tokens = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
export { client };
