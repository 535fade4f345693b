import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, serviceUnavailable } from '../errors.js';
import {
  API_KEY_HEADER,
  IDENTITY_HEADER,
  SESSION_COOKIE,
  type CredentialResolver,
  type Identity,
} from './identity.js';
import { accessOfRoute } from './authorize.js';
import { ruleOf, type KeySource } from './policy.js';
import type { AuthSettings } from './settings.js';
import { verifyIdentity } from './tokens.js';

export interface AuthenticationOptions {
  settings: AuthSettings;
  /** Checks API keys and session cookies; without it, only signed identities are accepted. */
  resolve?: CredentialResolver;
  /**
   * Where a page request (GET outside /api) without credentials is sent to sign in, with
   * `returnTo` set to where it was going; without it such requests get the 401 envelope too.
   */
  signInPath?: string;
}

const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * Every request's identity (`request.identity`), on every route of `app` and the routes registered
 * in it, the not-found handler included: a signed identity (from the gateway or another service),
 * an API key, or the session cookie, in that order; what is presented must be valid. Without any,
 * only routes marked `config: { public: true }` answer (and CORS preflights); other API requests
 * get a 401 envelope, page requests a redirect to sign in. With authentication off every caller is
 * anonymous.
 */
export function authenticateRequests(app: FastifyInstance, options: AuthenticationOptions) {
  const { settings, resolve, signInPath } = options;
  if (!settings.enabled) return;
  const secret = settings.sessionSecret as string;

  /** The identity the request's credentials stand for; undefined when it presents none. */
  async function identify(request: FastifyRequest): Promise<Identity | undefined> {
    const signed = header(request, IDENTITY_HEADER);
    if (signed) {
      const identity = await verifyIdentity(secret, signed);
      if (!identity) throw unauthorized('The platform identity token is not valid or has expired');
      // The gateway vouches for nobody: as if no credentials came (public routes only).
      return identity.kind === 'anonymous' ? undefined : identity;
    }
    const apiKey = header(request, API_KEY_HEADER) ?? authorizationKey(request);
    if (apiKey) {
      const identity = resolve ? await resolve({ apiKey }) : null;
      if (!identity) throw unauthorized('The API key is not valid: unknown, revoked or expired');
      return identity;
    }
    const sessionToken = request.cookies?.[SESSION_COOKIE];
    if (sessionToken && resolve) {
      const identity = await resolve({ sessionToken });
      if (!identity) throw unauthorized('Your session has ended; sign in again');
      refuseCrossSite(request);
      return identity;
    }
    return undefined;
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const isPublic = publicRoute(request);
    const preflight =
      request.method === 'OPTIONS' &&
      request.headers['access-control-request-method'] !== undefined;
    let identity: Identity | undefined;
    try {
      identity = await identify(request);
    } catch (error) {
      // A public route still answers a caller whose credentials have lapsed (sign in again).
      if (!(isPublic && error instanceof ApiError && error.code === 'UNAUTHORIZED')) {
        if (error instanceof ApiError && error.code === 'UNAUTHORIZED' && toSignIn(request))
          return redirectToSignIn(request, reply);
        throw error;
      }
    }
    if (identity) {
      request.identity = identity;
      return;
    }
    if (isPublic || preflight) return;
    if (toSignIn(request)) return redirectToSignIn(request, reply);
    throw unauthorized('Authentication required: sign in, or send an API key in X-API-Key');
  });

  const toSignIn = (request: FastifyRequest) =>
    signInPath !== undefined &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/api/');

  function redirectToSignIn(request: FastifyRequest, reply: FastifyReply) {
    const returnTo = encodeURIComponent(request.url);
    return reply.redirect(`${signInPath}?returnTo=${returnTo}`, 302);
  }
}

/**
 * Whether the route answers without credentials: its own declaration, or for a proxied service's
 * route, the declaration of the route the service itself serves it with (`config.proxiedTo`).
 */
function publicRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  const target = config?.proxiedTo && accessOfRoute(config.proxiedTo, request.method, request.url);
  if (target) return ruleOf(target.access) === 'public';
  return config?.public === true;
}

/**
 * The key the `Authorization` header carries, in a form the route accepts (`keyFrom`, its own or,
 * proxied, the service's): `Bearer <key>`, or HTTP Basic with the key as user or as password;
 * undefined elsewhere, where the header means nothing.
 */
function authorizationKey(request: FastifyRequest): string | undefined {
  const value = header(request, 'authorization');
  const scheme = value?.match(/^(bearer|basic) +(\S+)\s*$/i);
  if (!scheme) return undefined;
  const config = request.routeOptions.config;
  const access =
    config?.access ??
    (config?.proxiedTo && accessOfRoute(config.proxiedTo, request.method, request.url)?.access);
  const accepts = (source: KeySource) => access?.keyFrom?.includes(source) === true;
  const [, kind, token] = scheme;
  if (kind.toLowerCase() === 'bearer') return accepts('bearer') ? token : undefined;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] =
    colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  const key =
    (accepts('basic-password') && password !== '' ? password : undefined) ??
    (accepts('basic-user') && user !== '' ? user : undefined);
  return key;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that changes something on the strength of the session cookie alone must come from the
 * platform's own pages: `Sec-Fetch-Site: same-origin` (or `none`, typed by the person), else an
 * `Origin` equal to the request's own. Anything else (another site's form or fetch, or a client
 * that sends neither header) is refused: 403, nothing done.
 */
function refuseCrossSite(request: FastifyRequest) {
  if (SAFE_METHODS.has(request.method)) return;
  const site = header(request, 'sec-fetch-site');
  if (site === 'same-origin' || site === 'none') return;
  const origin = header(request, 'origin');
  if (!site && origin && origin === `${request.protocol}://${request.host}`) return;
  throw new ApiError(
    'FORBIDDEN',
    `Cross-site request refused: a ${request.method} with the session cookie must come from the platform's own pages (Origin ${origin ?? 'absent'}, Sec-Fetch-Site ${site ?? 'absent'}); other clients send an API key in X-API-Key`,
  );
}

/**
 * Checks API keys with the identity service over HTTP (`GET <platformUrl>/api/v1/passport/me`
 * with the key): what a standalone service does, having no access to the keys itself.
 */
export function remoteKeyResolver(platformUrl: string): CredentialResolver {
  const url = `${platformUrl.replace(/\/+$/, '')}/api/v1/passport/me`;
  return async ({ apiKey }) => {
    if (!apiKey) return null;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { [API_KEY_HEADER]: apiKey },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw serviceUnavailable(`The identity service at ${platformUrl} is unreachable`, error);
    }
    if (response.status === 401) return null;
    const body = (await response.json().catch(() => undefined)) as
      { success: true; data: Identity } | undefined;
    if (!response.ok || !body?.success)
      throw serviceUnavailable(`The identity service answered HTTP ${response.status}`);
    return body.data.kind === 'key' ? body.data : null;
  };
}
