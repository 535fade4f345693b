import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { notFound, sendError, type ErrorCode, type Identity } from '@platform/core';
import { appForBackend, type BackendApp } from '../../repositories/backends.js';
import type { StageBaseContext } from '../state.js';
import { BACKEND_ENTRIES } from './bundle.js';
import { BuildCache } from './cache.js';
import { responseHeaders } from './forward.js';
import { headersProblem } from './headers.js';
import type { StartRun } from '../workflows/run.js';
import { callFailure, hostCall } from './host.js';
import { runBackend, type LogMeta, type LogParts } from './logs.js';
import type { Outbound } from './outbound.js';
import type { BackendEnv, Failure, FailureKind, WireRequest } from './protocol.js';
import { BackendRuntime, type BackendJob, type RuntimeOutcome } from './supervisor.js';

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
  const { kind, message } = failure;
  const [status, code] = FAILURES[kind];
  reply.header('x-stage-backend-error', kind);
  if ('retryAfter' in failure && failure.retryAfter) reply.header('retry-after', String(failure.retryAfter)); // prettier-ignore
  return sendError(reply, code, `The backend of app ${sid} failed (${kind}): ${message}`, status);
}

/**
 * Who a backend's platform calls act as: the app itself, never its visitor. A key-like identity
 * holding the scopes the app declares, for the person who last published or changed it (whose
 * code it runs), with at most their role (never admin), and the app's team.
 */
export function appIdentity(app: BackendApp, role: 'viewer' | 'member'): Identity {
  return {
    kind: 'key',
    keyId: `app:${app.sid}`,
    name: `app ${app.name} (${app.sid})`,
    role,
    scopes: app.scopes,
    owner: app.published_by,
    team: app.team,
  };
}

const ROLE_TTL_MS = 30_000;

/**
 * The role an app's backend acts with: its publisher's now, as the identity service says (asked
 * at most every 30 s a person), capped at member; the role they had when publishing when it
 * cannot say (not reachable, or no such person), and for a team key's apps.
 */
function publisherRoles(ctx: StageBaseContext, log: FastifyBaseLogger) {
  const cache = new Map<string, { role: 'viewer' | 'member'; until: number }>();
  return async (app: BackendApp): Promise<'viewer' | 'member'> => {
    const email = app.published_by;
    if (!ctx.auth.enabled || !email || email.startsWith('key:')) return app.publisher_role;
    const hit = cache.get(email);
    if (hit && hit.until > Date.now()) return hit.role;
    let role = app.publisher_role;
    try {
      const [person] = await ctx.platform.passport.listUsers({ query: { email, limit: 1 } });
      if (person) role = person.role === 'viewer' ? 'viewer' : 'member';
    } catch (error) {
      log.warn({ err: error }, "stage backend: the publisher's role is unknown; using the one recorded"); // prettier-ignore
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(email, { role, until: Date.now() + ROLE_TTL_MS });
    return role;
  };
}

/** How a request reaches the backend: the wire request, and what the backend is told of it. */
export interface BackendCall {
  /** The request as the isolate gets it, built from the app (see forward.ts). */
  request: (app: BackendApp) => WireRequest;
  /** Who visits (env.auth): a person signed in to the app, a key or service, or anonymous. */
  auth: BackendEnv['auth'];
  /** Where the backend is mounted as the visitor sees it (env.app.basePath). */
  basePath: string;
  /** Answered on the app's own origin: its cookies may be set, its CSP is the app's. */
  ownOrigin: { csp: string } | null;
}

export interface BackendRunner {
  runtime: BackendRuntime;
  /** The bundles by version of the apps' files (scheduled runs use them too). */
  builds: BuildCache;
  /** The runtime and the build cache (closing the instance's state). */
  close(): Promise<void>;
  /** One request of an app's backend with its secrets, its console lines kept (logs.ts). */
  run(job: BackendJob, meta: LogMeta): Promise<RuntimeOutcome>;
  /** Runs the request in the app's backend and answers with what it answered (or a failure). */
  handle(reply: FastifyReply, sid: string, call: BackendCall): Promise<FastifyReply>;
  /**
   * Readies a route scope that reaches backends: any body as bytes (the backend parses it, up to
   * STAGE_BACKEND_MAX_BODY_BYTES).
   */
  attach(scope: FastifyInstance): void;
  /** Who the app's backend acts as now (appIdentity with its publisher's current role). */
  identityOf(app: BackendApp): Promise<Identity>;
}

/** What the runner is given of the instance's state, built before it. */
export interface RunnerParts extends LogParts {
  outbound: Outbound;
  /** Runs a workflow with the instance's engine (`runWorkflow` of `@stage/compute`). */
  startRun: StartRun;
}

/**
 * The one runtime of app backends of a service instance (its isolates, its build cache), built
 * by its setup (state.ts), and the handler every route that reaches a backend uses:
 * /stage/:sid/api/* on the platform's origin and /api/* on the app's own.
 */
export function backendRunner(ctx: StageBaseContext, parts: RunnerParts): BackendRunner {
  const { db, config, log } = ctx;
  const limits = config.backends;
  const builds = new BuildCache(db, limits.maxIsolates * 2, config);
  const runtime = new BackendRuntime(
    limits,
    (sid, context, op, args) => hostCall(ctx, parts, sid, context, op, args),
    (error) => callFailure(error, log),
    log,
  );
  const roleOf = publisherRoles(ctx, log);
  const identityOf = async (app: BackendApp) => appIdentity(app, await roleOf(app));
  const runner: BackendRunner = {
    identityOf,
    attach(scope) {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: limits.maxBodyBytes },
        (_request, body, done) => done(null, body),
      );
    },
    runtime,
    builds,
    close: async () => void (await Promise.all([runtime.close(), builds.close()])),
    run: (job, meta) => runBackend(ctx, parts, runtime, job, meta, log),
    async handle(reply: FastifyReply, sid: string, call: BackendCall) {
      const found = await appForBackend(db, sid);
      if (!found) throw notFound('App', sid);
      const build = await builds.get(found);
      if (build.kind === 'none')
        throw notFound(`Backend of app ${sid} (add ${BACKEND_ENTRIES[0]} to its session)`);
      if (build.kind === 'error')
        return fail(reply, sid, { kind: 'build', message: build.message });
      // With the app's secrets in env; its console lines kept (logs.ts).
      const meta = { requestId: reply.request.id, source: 'request' as const };
      const outcome = await runner.run({
        sid,
        hash: build.hash,
        code: build.code,
        request: call.request(found),
        env: {
          auth: call.auth,
          app: { sid, name: found.name, config: found.config, basePath: call.basePath },
        },
        context: { sid, identity: await identityOf(found) },
      }, meta); // prettier-ignore
      if (!outcome.ok) return fail(reply, sid, outcome.failure);
      const { status, headers, body } = outcome.response;
      const problem = headersProblem(headers);
      if (problem) return fail(reply, sid, { kind: 'bad-response', message: problem });
      return reply
        .code(status)
        .headers(responseHeaders(headers, call.ownOrigin))
        .send(Buffer.from(body));
    },
  };
  return runner;
}
