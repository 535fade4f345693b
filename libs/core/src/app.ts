import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RawServerDefault,
  type FastifyBaseLogger,
  type RawRequestDefaultExpression,
  type RawReplyDefaultExpression,
} from 'fastify';
import {
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isUniqueViolation,
  sqlState,
} from '@platform/db';
import { ANONYMOUS } from './auth/identity.js';
import { hostRewriter, refusedHostRoute, type HostRoute } from './hosts.js';
import { ApiError, codeForStatus, type ErrorCode, ERROR_STATUS } from './errors.js';
import { serializerCompiler } from './serializers.js';
import { declareNoQuery, schemaErrorFormatter, validatorCompiler } from './validation.js';
import { jsonBodiesOnly } from './json-bodies.js';
import { observeRequests, type MetricsOptions } from './metrics.js';
import { clientErrorHandler } from './socket-errors.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export const MiB = 1024 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer an over-long body with this BAD_REQUEST message instead of 413. */
    bodyTooLargeMessage?: string;
  }
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** Default body limit in bytes (1 MiB). */
  bodyLimit?: number;
  /** Not-found handler; the default answers with the JSON 404 envelope. */
  notFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /**
   * Longest a client may take to send its headers, and its whole request; beyond either it gets a
   * 408 envelope and the connection closes (slow clients cannot hold connections open).
   */
  timeouts?: { headersMs: number; requestMs: number };
  /** Fastify's trustProxy: whom to believe about the client's address (X-Forwarded-For). */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Host names that services claim for content of their own (see hosts.ts). */
  hostRoutes?: readonly HostRoute[];
  /**
   * Whether X-Forwarded-Host names the host a client asked for (default: with `trustProxy`). A
   * service behind the gateway trusts it: the gateway sets it, overwriting any client's.
   */
  trustForwardedHost?: boolean;
  metrics?: MetricsOptions; // Prometheus metrics, and `GET /metrics` with `route` (metrics.ts)
}

/** Node's default: a request line and headers larger than this answer 431. */
const MAX_HEADER_SIZE = 16 * 1024;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Longest path parameter (characters); a longer one is 414 URI_TOO_LONG. */
export const MAX_PARAM_LENGTH = 1000;
const PARAM_TOO_LONG = `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`;

/** Errors of the router, before any route or hook ran: a bad URL encoding, an over-long parameter. */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const [code, message]: [ErrorCode, string] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? ['URI_TOO_LONG', PARAM_TOO_LONG]
      : error.code === 'FST_ERR_BAD_URL'
        ? ['BAD_REQUEST', 'The URL is not validly percent-encoded']
        : [codeForStatus(error.statusCode ?? 400), error.message];
  void sendError(reply, code, message);
}

/**
 * One access-log line per request, when it is answered: what came in (method, URL, client) and
 * how it went (status, time), where Fastify writes two (one on arrival, one on answer). Half the
 * log output of a busy gateway, for the same information.
 */
class AccessLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * A Fastify instance with the platform's conventions: the envelope on every error, request ids
 * (an incoming x-request-id is honoured, and every response carries one), TypeBox schemas, and
 * one sentence per validation failure.
 */
export function createApp(options: AppOptions = {}): App {
  const { headersMs, requestMs } = options.timeouts ?? { headersMs: 10_000, requestMs: 300_000 };
  const hostRoutes = options.hostRoutes ?? [];
  const forwardedHost = options.trustForwardedHost ?? !!options.trustProxy;
  const app = Fastify({
    requestTimeout: requestMs,
    trustProxy: options.trustProxy ?? false,
    http: {
      headersTimeout: Math.min(headersMs, requestMs),
      maxHeaderSize: MAX_HEADER_SIZE,
      // How often Node looks for requests over their time; its default (30 s) would let a slow
      // client hold a connection that long past the limit.
      connectionsCheckingInterval: Math.min(1000, headersMs),
    },
    logger: options.logger ?? false,
    logController: new AccessLog(),
    bodyLimit: options.bodyLimit ?? MiB,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    schemaErrorFormatter,
    // While it drains, an app still serves what arrives on connections already open (Fastify adds
    // `connection: close` to those answers); a listener closed meanwhile refuses new connections.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    ...(hostRoutes.length ? { rewriteUrl: hostRewriter(hostRoutes, forwardedHost) } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // An operation that declares no query parameter refuses any (validation.ts: declareNoQuery).
  app.addHook('onRoute', (route) => {
    if (route.schema) declareNoQuery(route.schema);
  });
  // JSON only (a 415 for any other media type), and not nested without end.
  jsonBodiesOnly(app);
  // Callback-style hooks on the hot path: an async one costs a promise on every request.
  // Everyone anonymous until an authentication hook says otherwise.
  app.decorateRequest('identity', null as never);
  app.addHook('onRequest', (request, reply, done) => {
    request.identity = ANONYMOUS;
    reply.header('x-request-id', request.id);
    // A claimed host's route reached any other way (the platform's own host): not there.
    if (
      hostRoutes.length &&
      refusedHostRoute(hostRoutes, request.routeOptions.url, request.raw, request.params as never)
    ) {
      notFoundHandler(request, reply);
      return;
    }
    done();
  });
  // Cookies parsed on every request (the session cookie).
  void app.register(cookie);
  // Requests under way when the drain begins are answered with `connection: close` too, so that
  // every connection ends after its answer and closing never waits on a client's keep-alive.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  if (options.metrics) observeRequests(app, options.metrics);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(options.notFound ?? notFoundHandler);
  return app;
}

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, status?: number) {
  return reply
    .code(status ?? ERROR_STATUS[code])
    .type('application/json; charset=utf-8')
    .send({ success: false, error: { code, message } });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  // A wildcard route (the web UIs) can catch a path whose parameter was too long for the API.
  if (path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH))
    return sendError(reply, 'URI_TOO_LONG', PARAM_TOO_LONG);
  return sendError(reply, 'NOT_FOUND', `Route ${request.method} ${path} not found`);
}

function errorHandler(
  error: FastifyError & { cause?: unknown },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message);
    return sendError(reply, error.code, error.message);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const message = request.routeOptions.config?.bodyTooLargeMessage;
      if (message) return sendError(reply, 'BAD_REQUEST', message);
      const limit = request.routeOptions.bodyLimit;
      return sendError(
        reply,
        'PAYLOAD_TOO_LARGE',
        `Request body exceeds the limit of ${limit} bytes`,
      );
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendError(
        reply,
        'UNSUPPORTED_MEDIA_TYPE',
        `Unsupported content type: ${request.headers['content-type'] ?? 'none'}; send application/json`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return sendError(
        reply,
        'BAD_REQUEST',
        'Request body is empty but content-type is application/json',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return sendError(reply, 'BAD_REQUEST', `Malformed JSON body: ${error.message}`);
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return sendError(reply, 'BAD_REQUEST', `Malformed JSON body: ${error.message}`);
  }
  const pgCode = sqlState(error) ?? '';
  if (isUniqueViolation(error))
    return sendError(reply, 'CONFLICT', 'A record with the same unique value already exists');
  if (isForeignKeyViolation(error))
    return sendError(
      reply,
      'CONFLICT',
      'A record this one refers to was removed meanwhile, or another still refers to it; try again',
    );
  if (pgCode === '22003')
    return sendError(reply, 'BAD_REQUEST', 'A number in the request is out of range');
  // Postgres stores no NUL character, neither in text nor in jsonb (`\u0000`).
  // Text Postgres cannot read as its type: in practice a lone UTF-16 surrogate (`\ud83d`) in
  // JSON, which JavaScript accepts and jsonb does not.
  if (pgCode === '22P02' && error.message.includes('type json'))
    return sendError(reply, 'BAD_REQUEST', 'A text in the request is not valid Unicode');
  if (pgCode === '22021' || pgCode === '22P05')
    return sendError(reply, 'BAD_REQUEST', 'Text must not contain the NUL character (\\u0000)');
  // A client that went away mid-body (its stream errors with ECONNRESET) is not the database.
  if (request.raw.readableAborted && (error as { code?: string }).code === 'ECONNRESET') {
    request.log.info('the client went away before its request was read');
    return sendError(reply, 'BAD_REQUEST', 'The request was cut short by the client');
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return sendError(reply, 'SERVICE_UNAVAILABLE', 'The database is unavailable; try again later');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return sendError(reply, codeForStatus(status), error.message, status);
  request.log.error({ err: error }, 'unhandled error');
  // Never leak a stack or SQL text; the request id lets an operator find the log line.
  return sendError(
    reply,
    codeForStatus(status),
    `Internal server error (request id ${request.id})`,
    status >= 500 ? status : 500,
  );
}
