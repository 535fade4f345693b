import { Readable } from 'node:stream';
import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  accessOfRoute,
  badGateway,
  enforce,
  IDENTITY_HEADER,
  signIdentity,
  type App,
  type AuthorizationOptions,
  type AuthSettings,
  type ServiceManifest,
} from '@platform/core';

/** Errors that mean the target never got the request: connect refused, DNS, connect timeout. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Errors of a connection that broke: before the request was read, or while it was handled. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code && codes.has(e.code)) return true;
    if (Array.isArray((e as { errors?: unknown[] }).errors)) {
      // AggregateError from happy-eyeballs connects: unreachable if every attempt was.
      return (e as unknown as { errors: unknown[] }).errors.every((x) => hasCode(x, codes));
    }
  }
  return false;
}

/** The target is not there: no connection could be made. */
export const isUnreachable = (error: unknown) => hasCode(error, UNREACHABLE);

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a failed forward may be served in-process: always when no connection was made; when a
 * connection broke, only for idempotent methods, since the target may have acted on a POST
 * before it went away, and doing it again would do it twice.
 */
export const mayServeInProcess = (error: unknown, method: string) =>
  isUnreachable(error) || (IDEMPOTENT.has(method) && hasCode(error, BROKEN));

/** The target is gone or going: no connection, or one that broke under a request. */
const isDown = (error: unknown) => isUnreachable(error) || hasCode(error, BROKEN);

// Headers that describe one hop, not the message: never copied from an injected response.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
]);

/**
 * Bodies of these media types (uploads: a FOCUS CSV, files) are streamed to the target as they
 * arrive, never held in the gateway's memory, and limited by the service, not PROXY_BODY_LIMIT.
 */
export const STREAMED_TYPES = [
  'text/csv',
  'application/octet-stream',
  'multipart/form-data',
  // git's fetches and pushes (smart HTTP): packs of any size stream through.
  'application/x-git-upload-pack-request',
  'application/x-git-receive-pack-request',
];

/** A streamed body nothing has read yet: it can still go to the in-process fallback. */
const unreadStream = (body: unknown): body is Readable =>
  body instanceof Readable && !body.readableDidRead;

/**
 * The host and scheme the client asked for (its Host, or what a proxy the gateway trusts said),
 * as the target sees them: it routes an app's own origin by them (libs/core hosts.ts).
 */
const forwardedHeaders = (request: Pick<FastifyRequest, 'host' | 'protocol'>) => ({
  'x-forwarded-host': request.host,
  'x-forwarded-proto': request.protocol,
});

/** Serves a request with the in-process instance of the service, as if the proxy had. */
export async function serveInProcess(fallback: App, request: FastifyRequest, reply: FastifyReply) {
  const { host: _host, ...headers } = request.headers;
  const body = request.body;
  if (body instanceof Readable && !unreadStream(body))
    throw badGateway('The service went away while the upload was sent to it; send it again');
  // A buffered body's length is known again; a stream keeps the length it was sent with.
  if (!(body instanceof Readable)) delete headers['content-length'];
  const response = await fallback.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...headers, ...forwardedHeaders(request), 'x-request-id': request.id },
    payload: Buffer.isBuffer(body) || body instanceof Readable ? body : undefined,
  });
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
  }
  return reply
    .code(response.statusCode)
    .header('x-served-by', 'in-process-fallback')
    .send(response.rawPayload);
}

export interface ProxyOptions {
  manifest: ServiceManifest;
  upstream: string;
  fallback: App;
  bodyLimit: number;
  timeoutMs: number;
  /** After the target was unreachable, requests go in-process for this long before it is tried again. */
  retryAfterMs: number;
  auth: AuthSettings;
  /** The access policy's options for this service (its teams, its audit of denials). */
  access: AuthorizationOptions;
}

/**
 * Every prefix of the service (`<prefix>/*`) forwarded to the same path on `upstream` (method, headers and body as received,
 * the host header replaced by x-forwarded-host/-proto, x-request-id passed on). When the target is
 * unreachable the request is served in-process instead; an HTTP error from it is passed through.
 */
export const proxyService: FastifyPluginAsync<ProxyOptions> = async (scope, options) => {
  const { manifest, fallback } = options;
  // Outlier ejection, as Envoy does it: a target found unreachable is left alone for a while, so
  // that requests do not each wait for a connect to fail; the first request after that tries it.
  let ejectedUntil = 0;
  // The caller's identity, as the gateway established it, travels signed: the target (or the
  // fallback) verifies it instead of checking credentials again.
  const { auth } = options;
  // Decided here as the service itself would, from its own route table (the in-process copy
  // holds the same declarations and database): a denied request is never forwarded.
  scope.addHook('preValidation', async (request) => {
    const target = accessOfRoute(fallback, request.method, request.url);
    if (!target) return; // not a route of the service: it answers 404 itself
    const asRouted = Object.create(request, { params: { value: target.params } }) as FastifyRequest;
    await enforce(asRouted, target.access, options.access);
  });
  if (auth.enabled)
    scope.addHook('preHandler', async (request) => {
      request.headers[IDENTITY_HEADER] = await signIdentity(
        auth.sessionSecret as string,
        request.identity,
      );
    });
  scope.addHook('preHandler', async (request, reply) => {
    if (Date.now() >= ejectedUntil) return;
    await serveInProcess(fallback, request, reply);
    return reply;
  });
  // Bodies stay raw bytes: forwarded exactly as sent, and still at hand for the fallback;
  // uploads stream through.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: options.bodyLimit },
    (_req, body, done) => done(null, body),
  );
  scope.addContentTypeParser(STREAMED_TYPES, (_req, payload, done) => done(null, payload));
  const eject = () => {
    ejectedUntil = Date.now() + options.retryAfterMs;
  };

  for (const prefix of manifest.prefixes) await forward(scope, prefix, options, eject);
};

/** `prefix` (one of the service's) forwarded to the same path on the target. */
async function forward(
  scope: FastifyInstance,
  prefix: string,
  options: ProxyOptions,
  eject: () => void,
) {
  const { manifest, upstream, fallback } = options;
  await scope.register(httpProxy, {
    upstream,
    prefix,
    rewritePrefix: prefix,
    // Pages outside /api (the sandbox's previews) mix pages that need sign-in with files served
    // by address: the service, which knows which is which, decides from the identity forwarded.
    // Public or not as the service's route for the request says (see publicRoute in libs/core).
    config: { public: !prefix.startsWith('/api/'), proxiedTo: fallback },
    proxyPayloads: false,
    // node:http over reply-from's kept-alive agents (undici left a streamed upload to a target
    // that refused the connection hanging), the time limit on the socket's silence, and the
    // target's certificate checked: reply-from turns the check off unless told.
    http: { requestOptions: { timeout: options.timeoutMs, rejectUnauthorized: true } },
    handler: (request, reply, dest, replyOptions) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || request.method === 'GET' || request.method === 'HEAD') {
        return reply.from(dest, replyOptions);
      }
      return reply.from(dest, {
        ...replyOptions,
        body,
        contentType: request.headers['content-type'] ?? 'application/octet-stream',
      });
    },
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => {
        const { host: _upstreamHost, ...rest } = headers;
        return { ...rest, ...forwardedHeaders(request), 'x-request-id': request.id };
      },
      onError: (reply, { error }) => {
        const request = reply.request;
        // Requests after this one go in-process at once, not onto connections to a dead target.
        if (isDown(error)) eject();
        if (mayServeInProcess(error, request.method)) {
          request.log.warn(
            { upstream, err: error },
            `${manifest.name} proxy target unreachable, serving in-process`,
          );
          serveInProcess(fallback, request as FastifyRequest, reply as FastifyReply).catch(
            (err: unknown) => reply.send(err),
          );
          return;
        }
        reply.send(
          badGateway(`The ${manifest.name} service at ${upstream} failed: ${error.message}`, error),
        );
      },
    },
  });
}
