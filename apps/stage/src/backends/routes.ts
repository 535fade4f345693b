import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  notFound,
  sendError,
  type Access,
  type ErrorCode,
  type ServiceRoutes,
} from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';
import { BACKEND_ENTRIES } from './bundle.js';
import { BuildCache } from './cache.js';
import { authOf, responseHeaders, wireRequest } from './forward.js';
import { headersProblem } from './headers.js';
import { callFailure, hostCall } from './host.js';
import type { Failure, FailureKind } from './protocol.js';
import { appForBackend } from './repository.js';
import { BackendRuntime } from './supervisor.js';

/** Each failure's status and code; the kind itself is in the x-stage-backend-error header. */
const FAILURES: Record<FailureKind | 'build', [number, ErrorCode]> = {
  build: [502, 'BAD_GATEWAY'],
  boot: [502, 'BAD_GATEWAY'],
  'bad-export': [502, 'BAD_GATEWAY'],
  threw: [502, 'BAD_GATEWAY'],
  'bad-response': [502, 'BAD_GATEWAY'],
  'too-large': [502, 'BAD_GATEWAY'],
  memory: [502, 'BAD_GATEWAY'],
  timeout: [504, 'BAD_GATEWAY'],
  recycled: [503, 'SERVICE_UNAVAILABLE'],
  crashed: [503, 'SERVICE_UNAVAILABLE'],
};

function fail(
  reply: FastifyReply,
  sid: string,
  failure: Failure | { kind: 'build'; message: string },
) {
  // prettier-ignore
  const { kind, message } = failure;
  const [status, code] = FAILURES[kind];
  reply.header('x-stage-backend-error', kind);
  if ('retryAfter' in failure && failure.retryAfter) reply.header('retry-after', String(failure.retryAfter)); // prettier-ignore
  return sendError(reply, code, `The backend of app ${sid} failed (${kind}): ${message}`, status);
}

/** Reading from an app's backend is like reading its pages: any signed-in caller. */
const READ: Access = { resource: 'stage.backend', action: 'read' };
/** Anything else (POST, PUT, PATCH, DELETE, OPTIONS...): the members who use the app. */
const WRITE: Access = { resource: 'stage.backend', action: 'invoke' };
const READ_METHODS = ['GET', 'HEAD'];

/**
 * ANY /stage/:appSid/api and /stage/:appSid/api/* (mounted at /stage/:appSid/api): the published app's
 * backend (/app/api/index.ts) answers, in an isolate of the backend runtime (supervisor.ts),
 * with the request as sent minus the /stage/<sid>/api prefix. Signed-in callers only (viewers
 * for GET and HEAD, members otherwise); the caller is env.auth.
 */
export const backendRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, ctx) => {
  const { db, config } = ctx;
  const limits = config.backends;
  const builds = new BuildCache(db, limits.maxIsolates * 2);
  const runtime = new BackendRuntime(
    limits,
    (sid, context, op, args) => hostCall(ctx, sid, context, op, args),
    (error) => callFailure(error, app.log),
    app.log,
  );
  app.addHook('onClose', () => runtime.close());

  // Any body, as bytes: the backend parses it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: limits.maxBodyBytes },
    (_request, body, done) => done(null, body),
  );

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const sid = (request.params as { appSid: string }).appSid;
    const found = await appForBackend(db, sid);
    if (!found) throw notFound('App', sid);
    const build = await builds.get(found);
    if (build.kind === 'none')
      throw notFound(`Backend of app ${sid} (add ${BACKEND_ENTRIES[0]} to its session)`);
    if (build.kind === 'error') return fail(reply, sid, { kind: 'build', message: build.message });
    const auth = authOf(request.identity);
    const outcome = await runtime.fetch({
      sid,
      hash: build.hash,
      code: build.code,
      request: wireRequest(request, sid, auth),
      env: {
        auth,
        app: { sid, name: found.name, config: found.config, basePath: `/stage/${sid}/api` },
      },
      context: { sid, identity: request.identity },
    });
    if (!outcome.ok) return fail(reply, sid, outcome.failure);
    const { status, headers, body } = outcome.response;
    const problem = headersProblem(headers);
    if (problem) return fail(reply, sid, { kind: 'bad-response', message: problem });
    return reply.code(status).headers(responseHeaders(headers)).send(Buffer.from(body));
  };
  // Each route its own handler: the policy's record of a route's declaration is by handler.
  const writeMethods = app.supportedMethods.filter((m) => !READ_METHODS.includes(m));
  for (const url of ['/', '/*']) {
    app.route({
      method: READ_METHODS,
      url,
      schema: { hide: true },
      config: { access: READ },
      handler: (request, reply) => handle(request, reply),
    });
    app.route({
      method: writeMethods,
      url,
      schema: { hide: true },
      config: { access: WRITE },
      handler: (request, reply) => handle(request, reply),
    });
  }
};
