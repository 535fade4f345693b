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
import { ruleOf, type Access, type BodyKey, type KeySource } from './policy.js';
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
    // A route taking the key by HTTP Basic (git) asks for it as HTTP does: a 401 saying how,
    // never a redirect to sign in, so that the client prompts for credentials and sends them.
    const basic = basicKeyOf(routeAccess(request));
    let identity: Identity | undefined;
    try {
      identity = await identify(request);
    } catch (error) {
      // A public route still answers a caller whose credentials have lapsed (sign in again).
      if (!(isPublic && error instanceof ApiError && error.code === 'UNAUTHORIZED')) {
        const lapsed = error instanceof ApiError && error.code === 'UNAUTHORIZED';
        if (lapsed && basic) reply.header('www-authenticate', BASIC_CHALLENGE);
        else if (lapsed && toSignIn(request)) return redirectToSignIn(request, reply);
        throw error;
      }
    }
    if (identity) {
      request.identity = identity;
      return;
    }
    if (isPublic || preflight) return;
    // The key may still come in the body, known once it is parsed: decided in preValidation.
    if (bodyKeyOf(routeAccess(request))) {
      awaitingBody.add(request);
      return;
    }
    if (basic) {
      reply.header('www-authenticate', BASIC_CHALLENGE);
      throw unauthorized(
        `Authentication required: HTTP Basic with a platform API key as the ${basic === 'basic-user' ? 'user name' : 'password'}`,
      );
    }
    if (toSignIn(request)) return redirectToSignIn(request, reply);
    throw unauthorized('Authentication required: sign in, or send an API key in X-API-Key');
  });

  /** Requests that came without credentials to a route that takes its key in the body. */
  const awaitingBody = new WeakSet<FastifyRequest>();
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!awaitingBody.has(request)) return;
    const apiKey = bodyKeyOf(routeAccess(request))?.body(request.body, request);
    if (!apiKey)
      throw unauthorized(
        'Authentication required: send an API key in the body (as the route documents) or in X-API-Key',
      );
    const identity = resolve ? await resolve({ apiKey }) : null;
    if (!identity) throw unauthorized('The API key is not valid: unknown, revoked or expired');
    request.identity = identity;
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
  const access = routeAccess(request);
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

/** The declaration of the route serving the request: its own or, proxied, the service's. */
function routeAccess(request: FastifyRequest): Access | undefined {
  const config = request.routeOptions.config;
  return (
    config?.access ??
    (config?.proxiedTo
      ? accessOfRoute(config.proxiedTo, request.method, request.url)?.access
      : undefined)
  );
}

/** What a 401 of a route taking its key by HTTP Basic answers in `WWW-Authenticate`. */
const BASIC_CHALLENGE = 'Basic realm="platform", charset="UTF-8"';

/** The HTTP Basic form the route takes its key in, if it does (the password's first). */
const basicKeyOf = (access: Access | undefined) =>
  access?.keyFrom?.find(
    (source): source is 'basic-password' | 'basic-user' =>
      source === 'basic-password' || source === 'basic-user',
  );

/** Where in the body the route takes its key, if it does (`keyFrom: [{ body }]`). */
const bodyKeyOf = (access: Access | undefined) =>
  access?.keyFrom?.find((source): source is BodyKey => typeof source === 'object');

/**
 * Whether browsers on any site may call the route the request is for (`access.anyOrigin`): for a
 * preflight, the route of the method it announces. Found in the route's own declaration, the
 * proxied service's, or the app's table (`recordAccess`), for the CORS plugin's delegator.
 */
export function acceptsAnyOrigin(request: FastifyRequest): boolean {
  const announced = header(request, 'access-control-request-method');
  const method = request.method === 'OPTIONS' && announced ? announced.toUpperCase() : undefined;
  if (!method) return routeAccess(request)?.anyOrigin === true;
  const proxied = request.routeOptions.config?.proxiedTo;
  const found = accessOfRoute(proxied ?? request.server, method, request.url);
  return found?.access.anyOrigin === true;
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
